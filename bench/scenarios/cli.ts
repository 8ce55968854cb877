// `smriti --help` and `smriti recall` as a user runs them after `npm ci`: a fresh process of the compiled CLI each time,
// timed from spawn to exit.
import { ensureBuilt, runSmriti } from "../lib/compiled.ts";
import { summarize, type LatencySummary } from "../lib/stats.ts";

export interface CliResult {
  /** Wall ms per run. */
  help: LatencySummary;
  recall: LatencySummary;
  /** dist/ was stale and the bench built it before timing. */
  rebuilt: boolean;
}

const RUNS = 7;

/** Wall ms of one `smriti <args>` run. */
function timeRun(args: string[], dataDir: string): number {
  const t0 = performance.now();
  runSmriti(args, dataDir);
  return performance.now() - t0;
}

export function benchCli(dataDir: string, queries: readonly string[]): CliResult {
  const rebuilt = ensureBuilt();
  timeRun(["recall", queries[0]!], dataDir); // unmeasured: saves the indexes when the log moved since the last save
  const help = Array.from({ length: RUNS }, () => timeRun(["--help"], dataDir));
  const recall = Array.from({ length: RUNS }, (_, i) => timeRun(["recall", queries[1 + (i % (queries.length - 1))]!], dataDir));
  return { help: summarize(help), recall: summarize(recall), rebuilt };
}
