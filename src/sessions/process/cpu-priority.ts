// Lowering a whole process's CPU priority. On Linux a nice value and a scheduling policy belong to a thread
// (setpriority on the process id reaches its main thread alone) and a new thread takes its creator's: so each thread
// running now is lowered, and the threads started later (worker pools, libuv's) take it from the main thread.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

const TASKS = "/proc/self/task";
/** The field of /proc/<pid>/stat that holds a thread's scheduling policy, and Linux's number for SCHED_IDLE there. */
export const POLICY_FIELD = 41;
export const SCHED_IDLE = 5;

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

/**
 * Puts every thread of this process under Linux's SCHED_IDLE policy, below any nice value, and says whether its main
 * thread has it after. Such a thread runs on CPU time nothing else wants; a woken thread of another policy takes its CPU
 * at once; and when the kernel places a woken thread it counts a CPU running only such threads as free. At nice 19 the
 * process still counted as busy there: a recall client woken by the serving process's answer was put on the serving
 * process's own CPU and preempted it, which made the serving process's wait in the run queue grow from ~0.1 to ~0.7 ms
 * a recall while turns ran (perf sched, 100k). Node has no call for it: util-linux's chrt sets it; without chrt (macOS,
 * a bare image) or where it is refused, the nice value alone stays.
 */
export function takeIdlePolicy(): boolean {
  try {
    execFileSync("chrt", ["--idle", "--all-tasks", "--pid", "0", String(process.pid)], {
      stdio: "ignore",
      timeout: 10_000,
    });
  } catch {
    // No chrt, or not allowed: the caller logs what the process has.
  }
  return threadStat(process.pid, process.pid, POLICY_FIELD) === SCHED_IDLE;
}

/**
 * Field `field` of a thread's /proc/<pid>/task/<tid>/stat, numbered as proc(5) numbers them, or null without /proc or
 * once the thread has ended. Fields 1-2 end at the name in parentheses, which may hold spaces.
 */
export function threadStat(pid: number, tid: number, field: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[field - 3]);
  } catch {
    return null;
  }
}
