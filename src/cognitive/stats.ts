// The read side the uplift route, /metrics and the inspection routes call: counters since a time, by workspace, with the figures.
import { LAYER_IDS, type LayerId } from "../contract/cognitive-layers.ts";
import type { CognitiveStore } from "../ports/cognitive.ts";
import type { CognitivePipeline } from "./pipeline.ts";
import {
  latestAblation,
  latestStress,
  stressUpliftOf,
  tunerDecisions,
  type AblationFigures,
  type StressFigures,
  type TunerDecision,
} from "./records.ts";

export type LayerCounters = Record<string, number>;

export interface LayerSummary {
  id: LayerId;
  job: string;
  enabled: boolean;
  /** Counter totals over the window (all workspaces asked for), including not-yet-flushed increments. */
  counters: LayerCounters;
  /** metric -> (metric with the layer on) - (off), from the latest ablation run in the window; null when none. */
  uplift: Record<string, number> | null;
  /** "<perturbation> <metric>" -> (on) - (off) on data perturbed for this layer's job, from the latest stress run in the window; null when none. */
  stress_uplift: Record<string, number> | null;
}

export interface CognitiveSnapshot {
  /** Epoch ms the window starts at (hour granularity), null = everything recorded. */
  since: number | null;
  layers: LayerSummary[];
  by_workspace: Record<string, Partial<Record<LayerId, LayerCounters>>>;
  tuner: { tried: number; kept: number; decisions: (TunerDecision & { at: number })[] };
  ablation: (AblationFigures & { at: number }) | null;
  stress: (StressFigures & { at: number }) | null;
}

/** Everything the stack contributed since `since` (one workspace or all). Reads only. */
export async function cognitiveSnapshot(
  pipeline: CognitivePipeline,
  store: CognitiveStore,
  opts: { since?: number; workspaceId?: string } = {},
): Promise<CognitiveSnapshot> {
  const totals = await pipeline.counters.totals({ since: opts.since, workspaceId: opts.workspaceId });
  const overall = new Map<string, LayerCounters>();
  const byWorkspace: CognitiveSnapshot["by_workspace"] = {};
  for (const t of totals) {
    const layer = overall.get(t.layer) ?? {};
    layer[t.counter] = (layer[t.counter] ?? 0) + t.n;
    overall.set(t.layer, layer);
    const ws = (byWorkspace[t.workspaceId] ??= {});
    const wl = (ws[t.layer as LayerId] ??= {});
    wl[t.counter] = (wl[t.counter] ?? 0) + t.n;
  }
  const [ablation, stress, decisions] = await Promise.all([
    latestAblation(store, opts.since),
    latestStress(store, opts.since),
    tunerDecisions(store, { since: opts.since }),
  ]);
  const config = pipeline.current;
  const jobs = new Map(pipeline.layers.map((l) => [l.id, l.job]));
  return {
    since: opts.since ?? null,
    layers: LAYER_IDS.map((id) => ({
      id,
      job: jobs.get(id) ?? "",
      enabled: config.enabled[id],
      counters: overall.get(id) ?? {},
      uplift: ablation?.uplift[id] ?? null,
      stress_uplift: stressUpliftOf(stress, id),
    })),
    by_workspace: byWorkspace,
    tuner: { tried: decisions.length, kept: decisions.filter((d) => d.kept).length, decisions },
    ablation,
    stress,
  };
}
