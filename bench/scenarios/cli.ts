// `smriti --help` and `smriti recall` as a user runs them after `npm ci`: a fresh process of the compiled CLI each time
// (run.ts builds dist/ first when stale), timed from spawn to exit.
import { runCli } from "../../test/cli/cli-helpers.ts";
import { summarize, type LatencySummary } from "../lib/stats.ts";

export interface CliResult {
  /** Wall ms per run. */
  help: LatencySummary;
  recall: LatencySummary;
}

const RUNS = 7;

/** Wall ms of one `smriti <args>` run on the vault (the default embedder, as a user has it). */
async function timeRun(args: string[], dataDir: string): Promise<number> {
  const t0 = performance.now();
  const run = await runCli([...args, "--data", dataDir], { env: process.env });
  if (run.code !== 0 || run.stdout.trim() === "")
    throw new Error(`bench: smriti ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
  return performance.now() - t0;
}

export async function benchCli(dataDir: string, queries: readonly string[]): Promise<CliResult> {
  await timeRun(["recall", queries[0]!], dataDir); // unmeasured: saves the indexes when the log moved since the last save
  const help: number[] = [];
  const recall: number[] = [];
  for (let i = 0; i < RUNS; i++) help.push(await timeRun(["--help"], dataDir));
  for (let i = 0; i < RUNS; i++)
    recall.push(await timeRun(["recall", queries[1 + (i % (queries.length - 1))]!], dataDir));
  return { help: summarize(help), recall: summarize(recall) };
}
