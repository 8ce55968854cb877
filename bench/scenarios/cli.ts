// `smriti --help` and `smriti recall` as a user runs them after `npm ci`: a fresh process of the compiled CLI each time,
// timed from spawn to exit. A stale dist/ is rebuilt first (bin/smriti.js would otherwise run the sources through tsx).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { summarize, type LatencySummary } from "../lib/stats.ts";

export interface CliResult {
  /** Wall ms per run. */
  help: LatencySummary;
  recall: LatencySummary;
  /** dist/ was stale and the bench built it before timing. */
  rebuilt: boolean;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNS = 7;

/** Builds dist/ as `npm ci` does when any source is newer than its stamp. */
function ensureBuilt(): boolean {
  // find fails when there is no stamp yet; otherwise it prints the first source newer than it, if any.
  const newer = spawnSync("find", [`${ROOT}src`, "-newer", `${ROOT}dist/.build-stamp`, "-type", "f", "-print", "-quit"], { encoding: "utf8" });
  if (newer.status === 0 && newer.stdout.trim() === "") return false;
  const build = spawnSync(process.execPath, [`${ROOT}scripts/prepare.mjs`], { cwd: ROOT, stdio: "ignore" });
  if (build.status !== 0) throw new Error("bench: building dist/ for the CLI timing failed");
  return true;
}

/** Wall ms of one `smriti <args>` run; throws when it fails or prints nothing. */
function timeRun(args: string[], dataDir: string): number {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [`${ROOT}bin/smriti.js`, ...args], { env: { ...process.env, SMRITI_DATA_DIR: dataDir }, encoding: "utf8" });
  const ms = performance.now() - t0;
  if (run.status !== 0 || run.stdout.trim() === "") throw new Error(`bench: smriti ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
  return ms;
}

export function benchCli(dataDir: string, queries: readonly string[]): CliResult {
  const rebuilt = ensureBuilt();
  timeRun(["recall", queries[0]!], dataDir); // unmeasured: saves the indexes when the log moved since the last save
  const help = Array.from({ length: RUNS }, () => timeRun(["--help"], dataDir));
  const recall = Array.from({ length: RUNS }, (_, i) => timeRun(["recall", queries[1 + (i % (queries.length - 1))]!], dataDir));
  return { help: summarize(help), recall: summarize(recall), rebuilt };
}
