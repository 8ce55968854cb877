// Durable figures of the stack in the Store: tuner decisions, tuned parameters and ablation (uplift) runs.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { Store } from "../ports.ts";
import type { CognitiveParams } from "./params.ts";

export const RECORD_KINDS = { decision: "tuner_decision", tuned: "tuned_params", ablation: "ablation" } as const;

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

export function recordTunerRun(store: Store, at: number, decisions: readonly TunerDecision[], tuned: TunedParams): void {
  store.appendCognitiveRecords([
    ...decisions.map((payload) => ({ kind: RECORD_KINDS.decision, workspaceId: null, at, payload })),
    { kind: RECORD_KINDS.tuned, workspaceId: null, at, payload: tuned },
  ]);
}

export function recordAblation(store: Store, at: number, figures: AblationFigures): void {
  store.appendCognitiveRecords([{ kind: RECORD_KINDS.ablation, workspaceId: null, at, payload: figures }]);
}

export function tunerDecisions(store: Store, opts: { since?: number | undefined; limit?: number } = {}): (TunerDecision & { at: number })[] {
  return store.listCognitiveRecords({ kind: RECORD_KINDS.decision, since: opts.since, limit: opts.limit ?? 1000 }).map((r) => ({ ...(r.payload as TunerDecision), at: r.at }));
}

export function latestTuned(store: Store): TunedParams | null {
  return (store.listCognitiveRecords({ kind: RECORD_KINDS.tuned, limit: 1 })[0]?.payload as TunedParams | undefined) ?? null;
}

export function latestAblation(store: Store, since?: number): (AblationFigures & { at: number }) | null {
  const r = store.listCognitiveRecords({ kind: RECORD_KINDS.ablation, since, limit: 1 })[0];
  return r ? { ...(r.payload as AblationFigures), at: r.at } : null;
}
