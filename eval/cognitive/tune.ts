// `npm run eval -- tune`: the automatic tuner over the eval sets. Held-in = even query indices decide; odd ones are reported.
import { defaultCognitiveConfig } from "../../src/cognitive/params.ts";
import { recordTunerRun } from "../../src/cognitive/records.ts";
import { tune, type Knob } from "../../src/cognitive/tuner.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { recordInDataDir } from "./ablation.ts";
import { meanOf, openMeasuredSets } from "./sets.ts";

/** The figure the tuner climbs: the mean of the four headline metrics. */
export const TUNER_METRICS = ["locomo recall@10", "longmemeval recall_all@5", "scifact ndcg@10", "xquad containment"];

/** What it may change, in order: expansion on/off and strength, fusion weight, duplicate penalty, activation. */
export const KNOBS: Knob[] = [
  { layer: "manas", parameter: "enabled", values: [true, false] },
  { layer: "manas", parameter: "weight", values: [0.25, 0.5, 1] },
  { layer: "manas", parameter: "minSimilarity", values: [0.6, 0.7, 0.8] },
  { layer: "sabha", parameter: "denseScale", values: [0.75, 1, 1.25] },
  { layer: "viveka", parameter: "duplicatePenalty", values: [0.5, 1.5, 3] },
  { layer: "chitta", parameter: "enabled", values: [true, false] },
  { layer: "chitta", parameter: "recency", values: [0, 0.25, 0.5] },
  { layer: "chitta", parameter: "frequency", values: [0, 0.1, 0.2] },
];

export async function runTuner(): Promise<void> {
  const sets = await openMeasuredSets({ pack: false });
  try {
    const prov = provenance();
    const runId = `tune-${prov.date}`;
    const split = (keepEven: boolean) => (i: number) => (i % 2 === 0) === keepEven;
    const result = await tune(
      defaultCognitiveConfig,
      KNOBS,
      async (config) => {
        const per: Record<string, number[]> = {};
        for (const s of sets) Object.assign(per, await s.measure(config));
        const avg = (keep: (i: number) => boolean) => TUNER_METRICS.reduce((sum, m) => sum + meanOf(per[m]!, keep), 0) / TUNER_METRICS.length;
        return { heldIn: avg(split(true)), heldOut: avg(split(false)) };
      },
      { runId, metric: `mean of ${TUNER_METRICS.join(", ")} (held-in: even query index)`, minGain: 0.0005, log: progress },
    );
    const tuned = { run_id: runId, params: result.config.params, enabled: { ...result.config.enabled } };
    progress(`wrote ${writeResult("tuner", { ...prov, metrics: TUNER_METRICS, knobs: KNOBS, baseline: result.baseline, final: result.final, decisions: result.decisions, tuned })}`);
    recordInDataDir((store) => recordTunerRun(store, Date.now(), result.decisions, tuned));
  } finally {
    for (const s of sets) await s.close();
  }
}
