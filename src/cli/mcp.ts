// `smriti mcp`: the memory tools over MCP stdio, for agent hosts that launch their tool servers as child processes.
import type { Command } from "commander";
import type { Config } from "../config.ts";
import { AppError } from "../contract/errors.ts";
import type { FullRuntime } from "../main.ts";
import { DEFAULT_WORKSPACE } from "../services/auth.ts";
import type { CallContext } from "../ports/call-context.ts";
import {
  addDataOption,
  CliError,
  configFrom,
  POINT_ELSEWHERE,
  requireData,
  workspaceCall,
  type DataOptions,
} from "./shared.ts";

type McpOptions = DataOptions & { workspace: string };
/** stdout belongs to the protocol: every log line goes to stderr. */
const log = (msg: string) => process.stderr.write(`[smriti] ${msg}\n`);

export function registerMcp(program: Command): void {
  addDataOption(program.command("mcp"))
    .description("serve the memory tools over MCP stdio (auth: $SMRITI_TOKEN and optional $SMRITI_ACTOR_ID)")
    .option("--workspace <name>", "workspace to act in when $SMRITI_TOKEN is unset", DEFAULT_WORKSPACE)
    .action(async (opts: McpOptions) => {
      let runtime: FullRuntime | undefined;
      try {
        const config = configFrom(opts);
        // Tokenless too: a host launches this from its own folder, where a new empty vault would answer nothing (issue 41).
        requireData(config);
        const { createRuntime } = await import("../main.ts");
        runtime = await createRuntime(config, { background: true, log });
        await serve(runtime, config, opts);
      } catch (err) {
        // Whatever stopped the start, the host's initialize gets it as a JSON-RPC error, not just "Connection closed".
        const [code, message] = causeOf(err, opts);
        if (!process.stdin.isTTY) await (await import("../transports/mcp/stdio.ts")).refuseStdio(code, message);
        throw new CliError(`${code}: ${message}`);
      } finally {
        await runtime?.close();
      }
    });
}

async function serve(runtime: FullRuntime, config: Config, opts: McpOptions): Promise<void> {
  const token = process.env["SMRITI_TOKEN"]?.trim();
  const actor = process.env["SMRITI_ACTOR_ID"]?.trim() || undefined;
  // An actor is vouched for by a token that lists it, as x-svc-actor-id over HTTP; a tokenless process has none.
  if (!token && actor)
    throw new AppError(
      "actor_forbidden",
      `SMRITI_ACTOR_ID '${actor}' needs a SMRITI_TOKEN that allows it (smriti token create --actor ${actor})`,
    );
  if (!token && !config.multiTenant && opts.workspace !== DEFAULT_WORKSPACE)
    throw new AppError(
      "workspace_forbidden",
      "multi-tenancy is off (SVC_MULTI_TENANT): only the default workspace exists",
    );
  // Without a token this is a local process the user launched and who already owns the data file: trusted like the CLI.
  const first: CallContext = token
    ? await runtime.auth.authenticate(`Bearer ${token}`, actor)
    : { ...(await workspaceCall(runtime, opts.workspace)), tokenId: "local", actorId: null };
  // With a token, re-check it on every call so a revoked token stops working mid-session.
  const call = token ? () => runtime.auth.authenticate(`Bearer ${token}`, actor) : first;
  const { serveMcpStdio } = await import("../transports/mcp/stdio.ts");
  const mcp = await serveMcpStdio(runtime, call);
  log(
    `mcp on stdio (data ${config.dataDir}, workspace ${first.workspaceName}, embedder: ${runtime.embedder?.id ?? "none, lexical only"})`,
  );
  const stop = () => void mcp.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await mcp.closed;
}

/** A stable code and a message naming the cause, for the client and for stderr. */
function causeOf(err: unknown, opts: McpOptions): [string, string] {
  if (err instanceof AppError) {
    const where =
      err.code === "unauthorized"
        ? ` (in ${configFrom(opts).dataDir}; the token belongs to the data directory of the service that issued it: ${POINT_ELSEWHERE})`
        : "";
    return [err.code, `${err.message}${where}`];
  }
  if (err instanceof CliError) return ["start_failed", err.message];
  return ["start_failed", err instanceof Error ? err.message : String(err)];
}
