// What a result was measured on: date, commit (and whether the tree had local changes), embedder.
import { execFileSync } from "node:child_process";
import { repoRoot } from "./paths.ts";

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

export interface Provenance {
  date: string;
  commit: string;
  /** Uncommitted changes under src/ when measured: the commit alone does not pin the code. */
  dirtySrc: boolean;
  node: string;
}

export function provenance(): Provenance {
  return {
    date: new Date().toISOString(),
    commit: git(["rev-parse", "--short", "HEAD"]) || "unknown",
    dirtySrc: git(["status", "--porcelain", "--", "src"]) !== "",
    node: process.version,
  };
}
