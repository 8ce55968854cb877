// In-process pack latency (runtime.memory.pack with default budget and item cap), after a warm-up.
import type { BenchRuntime } from "../lib/runtime.ts";
import { summarize, type LatencySummary } from "../lib/stats.ts";
import { timedLoop, type LoopLimits } from "../lib/timed-loop.ts";

export interface PackResult extends LatencySummary {
  avgItems: number;
  cpuMsPerOp: number;
  truncated: boolean;
}

export async function benchPack(
  rt: BenchRuntime,
  warmup: readonly string[],
  intents: readonly string[],
  limits: LoopLimits,
): Promise<PackResult> {
  const pack = (intent: string) => rt.runtime.memory.pack(rt.workspaceId, { intent });
  for (const q of warmup) await pack(q);
  let items = 0;
  const loop = await timedLoop(intents, async (q) => (items += (await pack(q)).items.length), limits);
  return {
    ...summarize(loop.samples),
    avgItems: Math.round((items / loop.samples.length) * 10) / 10,
    cpuMsPerOp: loop.cpuMsPerOp,
    truncated: loop.truncated,
  };
}
