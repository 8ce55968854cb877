// Lowering a whole process's CPU priority. On Linux a nice value belongs to a thread (setpriority on the process id
// reaches its main thread alone) and a new thread takes its creator's: so each thread running now is lowered, and the
// threads started later (worker pools, libuv's) take it from the main thread.
import { existsSync, readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

const TASKS = "/proc/self/task";

/**
 * Lowers this process's threads to nice `nice` (0-19) and returns the main thread's nice after: one already lower stays
 * where it is (raising it needs privilege), and where lowering is not allowed (some containers) it stays too.
 */
export function lowerPriority(nice: number): number {
  const target = Math.max(getPriority(), nice);
  // Without /proc (macOS) the process's own priority, which there covers its threads.
  const threads = existsSync(TASKS) ? readdirSync(TASKS).map(Number) : [0];
  try {
    for (const tid of threads) lowerThread(tid, target);
  } catch {
    // Not allowed here: the caller logs the priority the process really has.
  }
  return getPriority();
}

function lowerThread(tid: number, nice: number): void {
  try {
    setPriority(tid, nice);
  } catch (err) {
    if ((err as { info?: { code?: string } }).info?.code !== "ESRCH") throw err; // ESRCH: a thread that ended meanwhile
  }
}
