// What Linux says about another process: its CPU time and resident memory (/proc/<pid>/stat and /status).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
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

/** Busy CPU time of the whole machine so far (every core: all but idle and iowait), in ms; /proc/stat counts ticks of 10 ms. */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) * 10;
}

/** Established TCP connections on local `port` held by each of `pids` (socket inodes in /proc/net/tcp matched to fds). */
export function connectionsOf(pids: readonly number[], port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"])
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 01 is ESTABLISHED.
      if (f.length > 9 && parseInt(f[1]!.split(":")[1]!, 16) === port && f[3] === "01") inodes.add(f[9]!);
    }
  return pids.map((pid) => {
    let n = 0;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const link = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`));
      if (link && inodes.has(link[1]!)) n++;
    }
    return n;
  });
}

function readlinkOrEmpty(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return ""; // the fd closed while we read the list
  }
}
