// What the numbers were measured on: CPU, memory, Node, load, and the commit of the tree.
import { execFileSync } from "node:child_process";
import { arch, cpus, freemem, loadavg, platform, release, totalmem } from "node:os";

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  totalMemMB: number;
  freeMemMB: number;
  node: string;
  platform: string;
  arch: string;
  sqlite: string | null;
  /** 1-minute load average when the bench started and ended: above the core count, other work shared the CPUs. */
  loadAvgStart: number;
  loadAvgEnd: number;
}

export function machineInfo(sqliteVersion: string | null, loadAvgStart: number): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    totalMemMB: Math.round(totalmem() / 2 ** 20),
    freeMemMB: Math.round(freemem() / 2 ** 20),
    node: process.version,
    platform: `${platform()} ${release()}`,
    arch: arch(),
    sqlite: sqliteVersion,
    loadAvgStart,
    loadAvgEnd: load1(),
  };
}

export function load1(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export interface CommitInfo {
  short: string;
  dirty: boolean;
}

export function commitInfo(cwd: string): CommitInfo {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    return {
      short: git("rev-parse", "--short", "HEAD"),
      dirty: git("status", "--porcelain", "--untracked-files=no") !== "",
    };
  } catch {
    return { short: "nogit", dirty: false };
  }
}
