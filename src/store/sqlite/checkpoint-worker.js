// Worker thread: checkpoints each file's WAL on its own connection, so the copy and fsync never block the request loop.
// Plain JavaScript on purpose: a worker does not inherit the tsx loader the CLI registers.
import Database from "better-sqlite3";
import { clearInterval, setInterval } from "node:timers";
import { parentPort, workerData } from "node:worker_threads";

const dbs = workerData.files.map((file) => new Database(file));
for (const db of dbs) db.pragma("busy_timeout = 5000");
const checkpoint = (mode) => {
  for (const db of dbs)
    try {
      db.pragma(`wal_checkpoint(${mode})`);
    } catch {
      // busy or closing: the next tick tries again
    }
};
const timer = setInterval(() => checkpoint("PASSIVE"), workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint("PASSIVE");
  for (const db of dbs) db.close();
  parentPort.postMessage("stopped");
});
