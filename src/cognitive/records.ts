// Durable figures of the stack in the Store: tuner decisions, tuned parameters and ablation (uplift) runs.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { CognitiveStore } from "../ports/cognitive.ts";
import type { CognitiveParams } from "./params.ts";

export const RECORD_KINDS = {
  decision: "tuner_decision",
  tuned: "tuned_params",
  ablation: "ablation",
  stress: "stress",
} as const;

/** One tuner step: a parameter change tried on the held-in split, kept only if the metric improved. */
export interface TunerDecision {
  run_id: string;
  layer: LayerId;
  parameter: string;
  before: number | boolean;
  after: number | boolean;
  metric: string;
  held_in_before: number;
  held_in_after: number;
  /** The same change on the held-out split (reported, never used to decide). */
  held_out_before: number | null;
  held_out_after: number | null;
  kept: boolean;
  /** The held-in part (eval set metric) that fell most with the change, and its change (negative). */
  worst_part?: string;
  worst_part_change?: number;
}

/** Parameters and switches a tuner run settled on; a runtime starts from the latest (SMRITI_TUNED=0 ignores them). */
export interface TunedParams {
  run_id: string;
  params: CognitiveParams;
  enabled: Record<LayerId, boolean>;
}

/** One ablation run: each metric with every (default-on) layer on, and with each layer off. */
export interface AblationFigures {
  run_id: string;
  commit: string;
  metrics: string[];
  all_on: Record<string, number>;
  /** uplift[layer][metric] = metric with all on minus metric with that layer off. */
  uplift: Record<string, Record<string, number>>;
  off: Record<string, Record<string, number>>;
}

/** One stress case: a perturbation of real data aimed at one layer's job, measured with the shipped defaults and with that layer off. */
export interface StressCase {
  /** Perturbation id, e.g. "duplicates". */
  id: string;
  layer: LayerId;
  metric: string;
  queries: number;
  /** The metric on the unperturbed data with the shipped defaults (reference). */
  unperturbed: number;
  on: number;
  off: number;
  /** on - off. */
  uplift: number;
  /** Queries whose value differs between on and off. */
  changed: number;
}

/** One stress run (`npm run eval -- stress`). */
export interface StressFigures {
  run_id: string;
  commit: string;
  cases: StressCase[];
}

export async function recordTunerRun(
  store: CognitiveStore,
  at: number,
  decisions: readonly TunerDecision[],
  tuned: TunedParams,
): Promise<void> {
  await store.appendCognitiveRecords([
    ...decisions.map((payload) => ({ kind: RECORD_KINDS.decision, workspaceId: null, at, payload })),
    { kind: RECORD_KINDS.tuned, workspaceId: null, at, payload: tuned },
  ]);
}

export async function recordAblation(store: CognitiveStore, at: number, figures: AblationFigures): Promise<void> {
  await store.appendCognitiveRecords([{ kind: RECORD_KINDS.ablation, workspaceId: null, at, payload: figures }]);
}

export async function recordStress(store: CognitiveStore, at: number, figures: StressFigures): Promise<void> {
  await store.appendCognitiveRecords([{ kind: RECORD_KINDS.stress, workspaceId: null, at, payload: figures }]);
}

export async function tunerDecisions(
  store: CognitiveStore,
  opts: { since?: number | undefined; limit?: number } = {},
): Promise<(TunerDecision & { at: number })[]> {
  return (
    await store.listCognitiveRecords({ kind: RECORD_KINDS.decision, since: opts.since, limit: opts.limit ?? 1000 })
  ).map((r) => ({ ...(r.payload as TunerDecision), at: r.at }));
}

export async function latestTuned(store: CognitiveStore): Promise<TunedParams | null> {
  return (
    ((await store.listCognitiveRecords({ kind: RECORD_KINDS.tuned, limit: 1 }))[0]?.payload as
      TunedParams | undefined) ?? null
  );
}

export async function latestAblation(
  store: CognitiveStore,
  since?: number,
): Promise<(AblationFigures & { at: number }) | null> {
  const [r] = await store.listCognitiveRecords({ kind: RECORD_KINDS.ablation, since, limit: 1 });
  return r ? { ...(r.payload as AblationFigures), at: r.at } : null;
}

export async function latestStress(
  store: CognitiveStore,
  since?: number,
): Promise<(StressFigures & { at: number }) | null> {
  const [r] = await store.listCognitiveRecords({ kind: RECORD_KINDS.stress, since, limit: 1 });
  return r ? { ...(r.payload as StressFigures), at: r.at } : null;
}

/** A layer's stress uplifts as "<case> <metric>" -> on - off; null when the run has no case for it. */
export function stressUpliftOf(figures: StressFigures | null, layer: LayerId): Record<string, number> | null {
  const mine = figures?.cases.filter((c) => c.layer === layer) ?? [];
  return mine.length === 0 ? null : Object.fromEntries(mine.map((c) => [`${c.id} ${c.metric}`, c.uplift]));
}
