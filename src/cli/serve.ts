// `smriti serve`: the HTTP API (with MCP at /mcp) on the embedded store; prints a first token on first start.
import type { Command } from "commander";
import { DEFAULT_WORKSPACE } from "../services/auth.ts";
import { describeStore } from "../config.ts";
import { TokenLimiter } from "../services/token-limits.ts";
import { addDataOption, configFrom, type DataOptions } from "./shared.ts";

export function registerServe(program: Command): void {
  addDataOption(program.command("serve"))
    .description("run the HTTP API and MCP endpoint")
    .option("--port <port>", "port (default $SMRITI_PORT or 8787; 0 = any free port)", (v) => Number.parseInt(v, 10))
    .option("--host <host>", "interface to bind (default $SMRITI_HOST or 127.0.0.1)")
    .action(async (opts: DataOptions & { port?: number; host?: string }) => {
      const config = configFrom(opts);
      const log = (msg: string) => process.stderr.write(`[smriti] ${msg}\n`);
      log(`data: ${describeStore(config)}`);
      const [{ createRuntime }, { createHttpApp }, { mountConsole }, { listen }, { mountMcpHttp }] = await Promise.all([
        import("../main.ts"),
        import("../transports/http/app.ts"),
        import("../transports/http/console.ts"),
        import("../transports/http/serve.ts"),
        import("../transports/mcp/http.ts"),
      ]);
      const runtime = await createRuntime(config, { background: true, autoTune: true, supervise: config.runsBackgroundSessions, log });
      if (!config.runsBackgroundSessions) log("background sessions: queued here, run by another process on this store (SMRITI_BACKGROUND_SESSIONS=0)");
      const defaultWs = (await runtime.store.findWorkspace(DEFAULT_WORKSPACE))!;
      if ((await runtime.store.listTokens(defaultWs.id)).length === 0) {
        const issued = await runtime.auth.issue({ workspace: DEFAULT_WORKSPACE, label: "first start" });
        process.stdout.write(`\nFirst start: a token for workspace '${DEFAULT_WORKSPACE}' (shown once; more with 'smriti token create'):\n\n  ${issued.token}\n\n`);
      }
      const warmStart = performance.now();
      for (const ws of await runtime.store.listWorkspaces()) await runtime.search.warm(ws.id, runtime.embedder ?? undefined);
      log(`indexes loaded in ${Math.round(performance.now() - warmStart)} ms`);
      const limiter = new TokenLimiter({ ratePerSecond: config.rateLimit, streamsPerToken: config.streamsPerToken });
      const app = createHttpApp(
        runtime,
        (a) => {
          mountMcpHttp(a, runtime, limiter);
          mountConsole(a, config.consoleDir);
        },
        limiter,
      );
      const server = await listen(app, config.host, config.port, { headersTimeoutMs: config.headersTimeoutMs });
      log(`listening on ${server.url} (embedder: ${runtime.embedder?.id ?? "none, lexical only"}); console: ${server.url}/console`);
      const shutdown = async () => {
        await server.close();
        await runtime.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void shutdown());
      process.once("SIGTERM", () => void shutdown());
    });
}
