// `smriti serve`: the HTTP API (with MCP at /mcp) on the embedded store; prints a first token on first start. It hands
// the session routes to a session process of its own (src/sessions/process/), started when sessions are used unless
// SMRITI_SESSION_PROCESS=0; with --workers N it runs N serving processes on the one port (serve-workers.ts).
import cluster from "node:cluster";
import type { Command } from "commander";
import { describeStore, type Config } from "../config.ts";
import type { FullRuntime } from "../main.ts";
import type { AppendNotices } from "../ports/event-log.ts";
import { TokenLimiter } from "../services/token-limits.ts";
import { issueFirstToken } from "./first-token.ts";
import { FOLLOW_TUNING_MS, serveWorkers, workerIndex } from "./serve-workers.ts";
import {
  goWithServingProcess,
  isSessionProcess,
  lowerSessionPriority,
  serveForServingProcess,
  sessionProcess,
  sessionProcessNotices,
  workerNotices,
  type SessionProcess,
} from "../sessions/process/index.ts";
import { addDataOption, configFrom, type DataOptions } from "./shared.ts";

type ServeOptions = DataOptions & { port?: number; host?: string; workers?: number };

/** Serving alone (maybe with a session process), as a group's worker, or as the session process of another. */
type Role = { kind: "alone" } | { kind: "worker"; index: number } | { kind: "sessions" };

export function registerServe(program: Command): void {
  addDataOption(program.command("serve"))
    .description("run the HTTP API and MCP endpoint")
    .option("--port <port>", "port (default $SMRITI_PORT or 8787; 0 = any free port)", (v) => Number.parseInt(v, 10))
    .option("--host <host>", "interface to bind (default $SMRITI_HOST or 127.0.0.1)")
    .option("--workers <n>", "processes answering on the port, e.g. one per core (default $SMRITI_WORKERS or 1)", (v) =>
      Number(v),
    )
    .action(async (opts: ServeOptions) => {
      const config = configFrom(opts);
      const index = workerIndex();
      const role: Role =
        index !== null ? { kind: "worker", index } : isSessionProcess() ? { kind: "sessions" } : { kind: "alone" };
      const tag = role.kind === "worker" ? ` w${role.index + 1}` : role.kind === "sessions" ? " sessions" : "";
      const log = (msg: string) => process.stderr.write(`[smriti${tag}] ${msg}\n`);
      if (role.kind === "sessions") log(lowerSessionPriority(config.sessionNice, config.sessionIdlePolicy));
      // The session process plans on its own loop (unless told otherwise): it serves only sessions, and a planning
      // thread cost it 41 MB at 10k and its start (~0.6 s) fell on the first turn after each start of the process.
      if (role.kind === "sessions") return serveProcess({ ...config, planWorkers: config.planWorkers ?? 0 }, log, role);
      if (role.kind !== "alone") return serveProcess(config, log, role);
      log(`data: ${describeStore(config)}`);
      if (config.workers > 1 && cluster.isPrimary) return serveWorkers(config, log);
      await serveProcess(config, log, role);
    });
}

/** One serving process. A group's first worker and a lone process run the store's once-only jobs. */
async function serveProcess(config: Config, log: (msg: string) => void, role: Role): Promise<void> {
  let stopping: Promise<void> | null = null;
  if (role.kind === "sessions") goWithServingProcess();
  const [
    { createRuntime },
    { createHttpApp },
    { mountConsole },
    { acceptingServer, listen },
    { mountMcpHttp },
    { mountAgui },
  ] = await Promise.all([
    import("../main.ts"),
    import("../transports/http/app.ts"),
    import("../transports/http/console.ts"),
    import("../transports/http/serve.ts"),
    import("../transports/mcp/http.ts"),
    import("../transports/agui/mount.ts"),
  ]);
  const lead = role.kind === "alone" || (role.kind === "worker" && role.index === 0);
  const sessions: SessionProcess | null =
    role.kind === "alone" && config.sessionProcess !== "off"
      ? sessionProcess({
          onDemand: config.sessionProcess === "on-demand",
          waiting: async () => config.runsBackgroundSessions && (await runtime.supervisor.waiting()),
          pollMs: config.heartbeatMs,
          log,
        })
      : null;
  const appendNotices: AppendNotices | undefined =
    role.kind === "alone" ? sessions?.notices : role.kind === "worker" ? workerNotices() : sessionProcessNotices();
  // Background runs go where the turns go: to the session process when there is one.
  const supervise = config.runsBackgroundSessions && sessions === null;
  const queuedElsewhere = sessions && config.runsBackgroundSessions ? sessions.queued : undefined;
  const runtime: FullRuntime = await createRuntime(config, {
    background: true,
    autoTune: lead,
    followTuningMs: lead ? undefined : FOLLOW_TUNING_MS,
    lead,
    supervise,
    queuedElsewhere,
    log,
    appendNotices,
  });
  if (!config.runsBackgroundSessions && role.kind !== "sessions")
    log("background sessions: queued here, run by another process on this store (SMRITI_BACKGROUND_SESSIONS=0)");
  if (role.kind === "alone") await issueFirstToken(runtime);
  sessions?.start(); // once the store is migrated
  const warmStart = performance.now();
  for (const ws of await runtime.store.workspaces.listWorkspaces())
    await runtime.search.warm(ws.id, runtime.dense.current().embedder ?? undefined);
  log(`indexes loaded in ${Math.round(performance.now() - warmStart)} ms`);
  // The session process only runs turns, and the serving process answers them until it is ready: its first turn
  // loaded the tagger and the word neighbours (0.6-0.7 s of a first token at 10k) before it did this.
  if (role.kind === "sessions") await runtime.warmAnswers();
  const limiter = new TokenLimiter({ ratePerSecond: config.rateLimit, streamsPerToken: config.streamsPerToken });
  const app = createHttpApp(
    runtime,
    (a) => {
      mountMcpHttp(a, runtime, limiter);
      mountAgui(a, runtime, limiter);
      mountConsole(a, config.consoleDir);
    },
    limiter,
    sessions ? (path) => sessions.servedHere(path) && sessions.wanted() : undefined,
  );
  await sessions?.started;
  const opts = {
    headersTimeoutMs: config.headersTimeoutMs,
    divert: sessions?.divert,
    closeAfter: sessions?.servedHere,
  };
  const server =
    role.kind === "sessions"
      ? acceptingServer(app, config.host, opts)
      : await listen(app, config.host, config.port, opts);
  if ("accept" in server) {
    const idleMs = config.sessionProcess === "on-demand" ? config.sessionIdleMs : null;
    const leave = () => {
      log(`stopping: no session work for ${idleMs! / 1000} s (SMRITI_SESSION_IDLE_MS)`);
      void shutdown();
    };
    // A session queued in the serving process may already run here: its start-up scan took it from the store.
    const enqueue = (ws: string, id: string) => runtime.supervisor.isLive(ws, id) || runtime.supervisor.enqueue(ws, id);
    serveForServingProcess({ accept: server.accept, enqueue, atRest: runtime.sessionsAtRest, idleMs, leave });
  }
  const embedder = `embedder: ${runtime.embedder?.id ?? "none, lexical only"}`;
  // A group's address is announced once, by its primary, when every worker listens.
  if (role.kind === "alone" && "url" in server)
    log(`listening on ${server.url} (${embedder}); console: ${server.url}/console`);
  else log(`answering (${embedder})`);
  const shutdown = () =>
    (stopping ??= (async () => {
      // Together: the listening socket waits for the connections handed to the session process too.
      await Promise.all([server.close(), sessions?.close()]);
      await runtime.close();
      process.exit(0);
    })());
  process.once("SIGINT", () => void shutdown());
  process.once("SIGTERM", () => void shutdown());
}
