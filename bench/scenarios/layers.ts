// The cognitive pipeline's cost: hybrid recall with every layer on (time per layer per recall) and with every layer off.
import { LAYER_IDS, type LayerId } from "../../src/contract/cognitive-layers.ts";
import type { LayerSwitches } from "../../src/cognitive/params.ts";
import type { BenchRuntime } from "../lib/runtime.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { timedLoop, type LoopLimits } from "../lib/timed-loop.ts";

export interface LayerCostRow {
  layer: LayerId;
  /** Mean wall time the layer's hooks took per recall (microseconds). */
  usPerRecall: number;
  failures: number;
}

export interface LayersResult {
  allOn: LatencySummary & { cpuMsPerOp: number };
  allOff: LatencySummary & { cpuMsPerOp: number };
  perLayer: LayerCostRow[];
}

const switches = (on: boolean): LayerSwitches => Object.fromEntries(LAYER_IDS.map((id) => [id, on]));

export async function benchLayers(
  rt: BenchRuntime,
  warmup: readonly string[],
  on: readonly string[],
  off: readonly string[],
  limits: LoopLimits,
  k = 10,
): Promise<LayersResult> {
  const pipeline = rt.runtime.cognitive.pipeline;
  const recall = (query: string, layers: LayerSwitches) =>
    rt.runtime.memory.recall(rt.workspaceId, { query, k, mode: "hybrid" }, { layers });
  for (const q of warmup) await recall(q, switches(true));
  pipeline.resetCosts();
  const onLoop = await timedLoop(on, (q) => recall(q, switches(true)), limits);
  const costs = pipeline.costPerLayer();
  const offLoop = await timedLoop(off, (q) => recall(q, switches(false)), limits);
  const n = onLoop.samples.length;
  return {
    allOn: { ...summarize(onLoop.samples), cpuMsPerOp: onLoop.cpuMsPerOp },
    allOff: { ...summarize(offLoop.samples), cpuMsPerOp: offLoop.cpuMsPerOp },
    perLayer: LAYER_IDS.map((layer) => ({
      layer,
      usPerRecall: round(((costs[layer]?.ms ?? 0) * 1000) / Math.max(1, n), 1),
      failures: costs[layer]?.failures ?? 0,
    })),
  };
}
