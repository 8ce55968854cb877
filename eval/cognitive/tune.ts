// `npm run eval -- tune`: the automatic tuner over the eval sets. Held-in = even query indices decide; odd ones are reported.
import { defaultCognitiveConfig } from "../../src/cognitive/params.ts";
import { recordTunerRun } from "../../src/cognitive/records.ts";
import { TUNER_KNOBS as KNOBS } from "../../src/cognitive/knobs.ts";
import { tune } from "../../src/cognitive/tuner.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { recordInDataDir } from "./ablation.ts";
import { meanOf, openMeasuredSets } from "./sets.ts";

/** The figure the tuner climbs: the mean of the four headline metrics. */
export const TUNER_METRICS = ["locomo recall@10", "longmemeval recall_all@5", "scifact ndcg@10", "xquad containment"];

/** The held-in mean must rise by more than this: about two queries' worth (one LoCoMo or XQuAD held-in query moves it ~0.0008). */
export const MIN_GAIN = 0.0015;

/** No set's held-in metric may fall by more than this for a change to be kept (the baselines are protected per set). */
export const MAX_DROP = 0.003;

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
        const parts = Object.fromEntries(TUNER_METRICS.map((m) => [m, meanOf(per[m]!, split(true))]));
        const avg = (keep: (i: number) => boolean) =>
          TUNER_METRICS.reduce((sum, m) => sum + meanOf(per[m]!, keep), 0) / TUNER_METRICS.length;
        return { heldIn: avg(split(true)), heldOut: avg(split(false)), parts };
      },
      {
        runId,
        metric: `mean of ${TUNER_METRICS.join(", ")} (held-in: even query index)`,
        minGain: MIN_GAIN,
        maxDrop: MAX_DROP,
        log: progress,
      },
    );
    const tuned = { run_id: runId, params: result.config.params, enabled: { ...result.config.enabled } };
    progress(
      `wrote ${writeResult("tuner", { ...prov, metrics: TUNER_METRICS, knobs: KNOBS, baseline: result.baseline, final: result.final, decisions: result.decisions, tuned })}`,
    );
    await recordInDataDir((store) => recordTunerRun(store.cognitive, Date.now(), result.decisions, tuned));
  } finally {
    for (const s of sets) await s.close();
  }
}
