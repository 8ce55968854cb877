// `smriti serve --workers N`: N processes answering on one port (node:cluster hands each new connection to the next
// worker). Each is a replica on the store, as separate `smriti serve` processes are: a write is seen by the next read
// on any of them, chat turns and background runs are leased, and worker 1 alone runs the once-only jobs. The primary
// only starts them, replaces one that dies, and stops them all on SIGINT or SIGTERM.
import cluster, { type Worker } from "node:cluster";
import type { Config } from "../config.ts";
import { isAppended, restartDelayMs, STOP_GRACE_MS } from "../sessions/process/index.ts";
import { issueFirstToken } from "./first-token.ts";
import { withRuntime } from "./shared.ts";

const INDEX_ENV = "SMRITI_WORKER_INDEX";
/** How often a replica that does not tune (a group's other workers, the session process) reads the tuned parameters. */
export const FOLLOW_TUNING_MS = 60_000;
/** A worker that served this long before it died starts its slot's count of deaths in a row again. */
const STEADY_MS = 60_000;

/** This process's place in a worker group (0 is the lead), or null when it serves alone. */
export function workerIndex(): number | null {
  const raw = cluster.isWorker ? process.env[INDEX_ENV] : undefined;
  return raw === undefined ? null : Number(raw);
}

export async function serveWorkers(config: Config, log: (msg: string) => void): Promise<void> {
  // Once, before any worker opens the store: migrations, and the first start's token.
  await withRuntime({ data: config.dataDir }, issueFirstToken, { embedder: null }, true);
  const workers = new Map<number, Worker>();
  const listening = new Set<number>();
  /** Consecutive deaths of each slot's workers, for the restart backoff; reset once one has served a while. */
  const deaths = new Map<number, number>();
  let stopping = false;
  let exitCode = 0;
  let announced = false;

  const start = (index: number) => {
    const worker = cluster.fork({ [INDEX_ENV]: String(index) });
    const born = Date.now();
    workers.set(index, worker);
    // A send to a worker that just died fails; its exit is handled below, the primary must not fall with it.
    worker.on("error", (err) => log(`worker ${index + 1}: ${err.message}`));
    worker.on("message", (m) => {
      if (!isAppended(m)) return;
      for (const other of workers.values())
        if (other !== worker && other.isConnected()) other.send(m, undefined, () => {});
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
      if (workers.get(index) === worker) workers.delete(index);
      const served = listening.delete(index);
      if (stopping) {
        if (code !== 0 && !worker.exitedAfterDisconnect) exitCode ||= 1;
        if (workers.size === 0) process.exit(exitCode);
        return;
      }
      const how = signal ? `by ${signal}` : `with code ${code}`;
      // At the first start a worker that never served will not do better on a second try (bad configuration, port in use).
      if (!announced) return stopAll(`worker ${index + 1} exited ${how} before it was serving`, 1);
      // Deaths in a row of this slot's workers: one that served a while starts the count again.
      const n = served && Date.now() - born > STEADY_MS ? 1 : (deaths.get(index) ?? 0) + 1;
      deaths.set(index, n);
      const wait = restartDelayMs(n);
      log(`worker ${index + 1} exited ${how}; starting another in ${wait / 1000} s`);
      setTimeout(() => !stopping && start(index), wait).unref();
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
      process.exit(1); // a worker did not stop in time
    }, STOP_GRACE_MS).unref();
  };

  // A second signal (Ctrl-C twice) does not cut the workers' clean stop short.
  process.on("SIGINT", () => stopAll("stopping the workers", 0));
  process.on("SIGTERM", () => stopAll("stopping the workers", 0));
  for (let i = 0; i < config.workers; i++) start(i);
}
