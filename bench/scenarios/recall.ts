// In-process recall latency (runtime.memory.recall, top-10) per retrieval mode, after a warm-up.
import type { BenchRuntime } from "../lib/runtime.ts";
import { summarize, type LatencySummary } from "../lib/stats.ts";
import { timedLoop, type LoopLimits } from "../lib/timed-loop.ts";

export type Mode = "lexical" | "hybrid" | "vector";

export interface RecallResult extends LatencySummary {
  mode: Mode;
  avgHits: number;
  cpuMsPerOp: number;
  truncated: boolean;
}

export async function benchRecall(
  rt: BenchRuntime,
  mode: Mode,
  warmup: readonly string[],
  queries: readonly string[],
  limits: LoopLimits,
  k = 10,
): Promise<RecallResult> {
  const recall = (query: string) => rt.runtime.memory.recall(rt.workspaceId, { query, k, mode });
  for (const q of warmup) await recall(q);
  let hits = 0;
  const loop = await timedLoop(queries, async (q) => (hits += (await recall(q)).hits.length), limits);
  return {
    mode,
    ...summarize(loop.samples),
    avgHits: Math.round((hits / loop.samples.length) * 10) / 10,
    cpuMsPerOp: loop.cpuMsPerOp,
    truncated: loop.truncated,
  };
}
