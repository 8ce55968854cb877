// The token `smriti serve` prints at the very first start of a store, so a new user can call the API at once.
import type { FullRuntime } from "../main.ts";
import type { Scope } from "../contract/scopes.ts";
import { DEFAULT_WORKSPACE } from "../services/auth.ts";

export const FIRST_TOKEN_SCOPES: readonly Scope[] = ["read", "write", "admin"];

/**
 * Issues a token for the default workspace when it has none yet, and prints it (once, at the very first start). It may
 * read, write and admin (decide approvals and proposals in the console) but not execute: a first token is soon pasted
 * into agents' configurations, and running catalog commands is something an operator grants on purpose.
 */
export async function issueFirstToken(runtime: FullRuntime): Promise<void> {
  const defaultWs = (await runtime.store.workspaces.findWorkspace(DEFAULT_WORKSPACE))!;
  if ((await runtime.store.workspaces.listTokens(defaultWs.id)).length > 0) return;
  const issued = await runtime.auth.issue({
    workspace: DEFAULT_WORKSPACE,
    label: "first start",
    scopes: FIRST_TOKEN_SCOPES,
  });
  process.stdout.write(
    `\nFirst start: a token for workspace '${DEFAULT_WORKSPACE}' (shown once; scopes ${FIRST_TOKEN_SCOPES.join(",")}; more with 'smriti token create --scope'):\n\n  ${issued.token}\n\n`,
  );
}
