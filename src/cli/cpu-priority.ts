// Lowering a whole process's CPU priority. On Linux a nice value belongs to a thread (setpriority on the process id
// reaches its main thread alone) and a new thread takes its creator's: so each thread running now is lowered, and the
// threads started later (worker pools, libuv's) take it from the main thread.
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** Lowers this process's threads to nice `nice` (0-19); one already lower stays where it is (raising it needs privilege). */
export function lowerPriority(nice: number): number {
  const target = Math.max(getPriority(), nice);
  let threads: string[];
  try {
    threads = readdirSync("/proc/self/task");
  } catch {
    setPriority(target); // no /proc (macOS): the process's own priority, which there covers its threads
    return target;
  }
  for (const tid of threads) {
    try {
      setPriority(Number(tid), target);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return target;
}
