// What Linux says about another process: its CPU time and resident memory (/proc/<pid>/stat and /status).
import { readdirSync, readFileSync } from "node:fs";
import { round } from "./stats.ts";

/** CPU time (user + system, all threads) of a process so far, in ms; /proc counts clock ticks of 10 ms. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name in parentheses may hold spaces
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The processes `pid` started that still run (a worker group's workers), from /proc/<pid>/task/<tid>/children. */
export function childPids(pid: number): number[] {
  const tasks = readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

/** VmRSS and VmHWM (the peak) of a process, in MB. */
export function residentMB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: round(kb("VmRSS") / 1024, 1), peak: round(kb("VmHWM") / 1024, 1) };
}
