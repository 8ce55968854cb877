// `smriti serve`: the HTTP API (with MCP at /mcp) on the embedded store; prints a first token on first start. With
// --workers N it runs N such processes on the one port (serve-workers.ts).
import cluster from "node:cluster";
import type { Command } from "commander";
import { describeStore, type Config } from "../config.ts";
import { TokenLimiter } from "../services/token-limits.ts";
import { issueFirstToken } from "./first-token.ts";
import { serveWorkers, workerIndex, workerNotices } from "./serve-workers.ts";
import { addDataOption, configFrom, type DataOptions } from "./shared.ts";

/** How often a group's other workers read the parameters worker 1's tuner recorded. */
const FOLLOW_TUNING_MS = 60_000;

type ServeOptions = DataOptions & { port?: number; host?: string; workers?: number };

export function registerServe(program: Command): void {
  addDataOption(program.command("serve"))
    .description("run the HTTP API and MCP endpoint")
    .option("--port <port>", "port (default $SMRITI_PORT or 8787; 0 = any free port)", (v) => Number.parseInt(v, 10))
    .option("--host <host>", "interface to bind (default $SMRITI_HOST or 127.0.0.1)")
    .option("--workers <n>", "processes answering on the port, e.g. one per core (default $SMRITI_WORKERS or 1)", (v) => Number(v))
    .action(async (opts: ServeOptions) => {
      const config = configFrom(opts);
      const index = workerIndex();
      const log = (msg: string) => process.stderr.write(`[smriti${index === null ? "" : ` w${index + 1}`}] ${msg}\n`);
      if (index !== null) return serveProcess(config, log, index);
      log(`data: ${describeStore(config)}`);
      if (config.workers > 1 && cluster.isPrimary) return serveWorkers(config, log);
      await serveProcess(config, log, null);
    });
}

/** One serving process: alone (`worker` null), or worker `worker` of a group, whose first (0) runs the store's once-only jobs. */
async function serveProcess(config: Config, log: (msg: string) => void, worker: number | null): Promise<void> {
  const [{ createRuntime }, { createHttpApp }, { mountConsole }, { listen }, { mountMcpHttp }] = await Promise.all([
    import("../main.ts"),
    import("../transports/http/app.ts"),
    import("../transports/http/console.ts"),
    import("../transports/http/serve.ts"),
    import("../transports/mcp/http.ts"),
  ]);
  const lead = worker === null || worker === 0;
  const appendNotices = worker === null ? undefined : workerNotices();
  const runtime = await createRuntime(config, { background: true, autoTune: lead, followTuningMs: lead ? undefined : FOLLOW_TUNING_MS, lead, supervise: config.runsBackgroundSessions, log, appendNotices });
  if (!config.runsBackgroundSessions) log("background sessions: queued here, run by another process on this store (SMRITI_BACKGROUND_SESSIONS=0)");
  if (worker === null) await issueFirstToken(runtime);
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
  const embedder = `embedder: ${runtime.embedder?.id ?? "none, lexical only"}`;
  // A group's address is announced once, by its primary, when every worker listens.
  log(worker === null ? `listening on ${server.url} (${embedder}); console: ${server.url}/console` : `answering (${embedder})`);
  let stopping: Promise<void> | null = null;
  const shutdown = () =>
    (stopping ??= (async () => {
      await server.close();
      await runtime.close();
      process.exit(0);
    })());
  process.once("SIGINT", () => void shutdown());
  process.once("SIGTERM", () => void shutdown());
}
