// Moves WAL checkpoints off the main thread: measured, SQLite's automatic checkpoints took half of ingest's wall time.
import { Worker } from "node:worker_threads";
import type { Db } from "./open.ts";

const INTERVAL_MS = 1_000;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Turns off automatic checkpoints on each connection and runs passive ones from a worker on connections of its own. */
export function startBackgroundCheckpoints(files: readonly { db: Db; file: string }[]): Checkpointer {
  for (const { db } of files) checkpointElsewhere(db);
  const workerData = { files: files.map((f) => f.file), intervalMs: INTERVAL_MS };
  const worker = new Worker(new URL("./checkpoint-worker.js", import.meta.url), { workerData });
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once("message", () => void worker.terminate().then(() => resolve()));
        worker.once("error", () => resolve());
        worker.postMessage("stop");
      }),
  };
}

/** No checkpoint inside this connection's commits: the background checkpointer does them. */
export function checkpointElsewhere(db: Db): void {
  db.pragma("wal_autocheckpoint = 0");
}
