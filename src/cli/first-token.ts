// The token `smriti serve` prints at the very first start of a store, so a new user can call the API at once.
import type { FullRuntime } from "../main.ts";
import { DEFAULT_WORKSPACE } from "../services/auth.ts";

/** Issues a token for the default workspace when it has none yet, and prints it (once, at the very first start). */
export async function issueFirstToken(runtime: FullRuntime): Promise<void> {
  const defaultWs = (await runtime.store.findWorkspace(DEFAULT_WORKSPACE))!;
  if ((await runtime.store.listTokens(defaultWs.id)).length > 0) return;
  const issued = await runtime.auth.issue({ workspace: DEFAULT_WORKSPACE, label: "first start" });
  process.stdout.write(`\nFirst start: a token for workspace '${DEFAULT_WORKSPACE}' (shown once; more with 'smriti token create'):\n\n  ${issued.token}\n\n`);
}
