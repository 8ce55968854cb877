// `smriti serve --workers N`: N processes answering on one port (node:cluster hands each new connection to the next
// worker). Each is a replica on the store, as separate `smriti serve` processes are: a write is seen by the next read
// on any of them, chat turns and background runs are leased, and worker 1 alone runs the once-only jobs. The primary
// only starts them, replaces one that dies, and stops them all on SIGINT or SIGTERM.
import cluster, { type Worker } from "node:cluster";
import type { Config } from "../config.ts";
import type { AppendNotices } from "../ports/event-log.ts";
import { issueFirstToken } from "./first-token.ts";
import { withRuntime } from "./shared.ts";

const INDEX_ENV = "SMRITI_WORKER_INDEX";
const APPENDED = "smriti:appended";
/** A worker that died after it was serving is replaced after this long (a crash loop does not spin). */
const RESTART_MS = 1_000;
/** Workers still running this long after the stop signal are killed. */
const STOP_GRACE_MS = 15_000;

/** This process's place in a worker group (0 is the lead), or null when it serves alone. */
export function workerIndex(): number | null {
  const raw = cluster.isWorker ? process.env[INDEX_ENV] : undefined;
  return raw === undefined ? null : Number(raw);
}

interface Appended {
  type: typeof APPENDED;
  /** [workspace id, stream] of each stream appended to. */
  streams: [string, string][];
}

const isAppended = (m: unknown): m is Appended => (m as Appended | null)?.type === APPENDED;

/**
 * A worker's side of the event-log notices: its appends go to the primary (once per stream and turn of the loop, however
 * many events), which passes them to the other workers; theirs come back the same way.
 */
export function workerNotices(): AppendNotices {
  const pending = new Map<string, [string, string]>();
  let soon: NodeJS.Immediate | null = null;
  const flush = () => {
    soon = null;
    const message: Appended = { type: APPENDED, streams: [...pending.values()] };
    pending.clear();
    if (process.connected) process.send?.(message);
  };
  return {
    publish(workspaceId, stream) {
      pending.set(`${workspaceId}\u0000${stream}`, [workspaceId, stream]);
      soon ??= setImmediate(flush);
    },
    listen(heard) {
      process.on("message", (m) => {
        if (isAppended(m)) for (const [workspaceId, stream] of m.streams) heard(workspaceId, stream);
      });
    },
  };
}

export async function serveWorkers(config: Config, log: (msg: string) => void): Promise<void> {
  // Once, before any worker opens the store: migrations, and the first start's token.
  await withRuntime({ data: config.dataDir }, issueFirstToken, { embedder: null }, true);
  const workers = new Map<number, Worker>();
  const listening = new Set<number>();
  let stopping = false;
  let exitCode = 0;
  let announced = false;

  const start = (index: number) => {
    const worker = cluster.fork({ [INDEX_ENV]: String(index) });
    workers.set(index, worker);
    worker.on("message", (m) => {
      if (!isAppended(m)) return;
      for (const other of workers.values()) if (other !== worker && other.isConnected()) other.send(m);
    });
    worker.on("listening", (address) => {
      listening.add(index);
      if (announced || listening.size < config.workers) return;
      announced = true;
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      const url = `http://${host}:${address.port}`;
      log(`listening on ${url} (${config.workers} workers); console: ${url}/console`);
    });
    worker.on("exit", (code, signal) => {
      workers.delete(index);
      const served = listening.delete(index);
      if (stopping) {
        if (workers.size === 0) process.exit(exitCode);
        return;
      }
      const how = signal ? `by ${signal}` : `with code ${code}`;
      // One that never got to serve will not do better on a second try (a bad configuration, the port in use).
      if (!served) return stopAll(`worker ${index + 1} exited ${how} before it was serving`, 1);
      log(`worker ${index + 1} exited ${how}; starting another`);
      setTimeout(() => !stopping && start(index), RESTART_MS).unref();
    });
  };

  const stopAll = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log(why);
    if (workers.size === 0) process.exit(exitCode);
    for (const w of workers.values()) w.process.kill("SIGTERM");
    setTimeout(() => {
      for (const w of workers.values()) w.process.kill("SIGKILL");
      process.exit(exitCode);
    }, STOP_GRACE_MS).unref();
  };

  process.once("SIGINT", () => stopAll("stopping the workers", 0));
  process.once("SIGTERM", () => stopAll("stopping the workers", 0));
  for (let i = 0; i < config.workers; i++) start(i);
}
