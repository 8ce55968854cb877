// `smriti mcp`: the memory tools over MCP stdio, for agent hosts that launch their tool servers as child processes.
import type { Command } from "commander";
import { AppError } from "../contract/errors.ts";
import { DEFAULT_WORKSPACE } from "../services/auth.ts";
import type { CallContext } from "../services/context.ts";
import { addDataOption, CliError, configFrom, POINT_ELSEWHERE, requireData, workspaceCall, type DataOptions } from "./shared.ts";

export function registerMcp(program: Command): void {
  addDataOption(program.command("mcp"))
    .description("serve the memory tools over MCP stdio (auth: $SMRITI_TOKEN and optional $SMRITI_ACTOR_ID)")
    .option("--workspace <name>", "workspace to act in when $SMRITI_TOKEN is unset", DEFAULT_WORKSPACE)
    .action(async (opts: DataOptions & { workspace: string }) => {
      const config = configFrom(opts);
      const token = process.env["SMRITI_TOKEN"]?.trim();
      if (token) requireData(config); // a token is only ever known to the directory whose service issued it
      // stdout belongs to the protocol: every log line goes to stderr.
      const log = (msg: string) => process.stderr.write(`[smriti] ${msg}\n`);
      const [{ createRuntime }, { serveMcpStdio, refuseStdio }] = await Promise.all([import("../main.ts"), import("../transports/mcp/stdio.ts")]);
      const runtime = await createRuntime(config, { background: true, log });
      try {
        const actor = process.env["SMRITI_ACTOR_ID"]?.trim() || undefined;
        // An actor is vouched for by a token that lists it, as x-svc-actor-id over HTTP; a tokenless process has none.
        if (!token && actor)
          throw new AppError("actor_forbidden", `SMRITI_ACTOR_ID '${actor}' needs a SMRITI_TOKEN that allows it (smriti token create --actor ${actor})`);
        if (!token && !config.multiTenant && opts.workspace !== DEFAULT_WORKSPACE)
          throw new AppError("workspace_forbidden", "multi-tenancy is off (SVC_MULTI_TENANT): only the default workspace exists");
        // Without a token this is a local process the user launched and who already owns the data file: trusted like the CLI.
        const first: CallContext = token
          ? await runtime.auth.authenticate(`Bearer ${token}`, actor)
          : { ...(await workspaceCall(runtime, opts.workspace)), tokenId: "local", actorId: null };
        // With a token, re-check it on every call so a revoked token stops working mid-session.
        const call = token ? () => runtime.auth.authenticate(`Bearer ${token}`, actor) : first;
        const mcp = await serveMcpStdio(runtime, call);
        log(`mcp on stdio (data ${config.dataDir}, workspace ${first.workspaceName}, embedder: ${runtime.embedder?.id ?? "none, lexical only"})`);
        const stop = () => void mcp.close();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        await mcp.closed;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const message = `${err.message}${err.code === "unauthorized" ? ` (in ${config.dataDir}; the token belongs to the data directory of the service that issued it: ${POINT_ELSEWHERE})` : ""}`;
        if (!process.stdin.isTTY) await refuseStdio(err.code, message); // an agent host waits for its initialize answer
        throw new CliError(`${err.code}: ${message}`);
      } finally {
        await runtime.close();
      }
    });
}
