// The read-only views the /sdk/cognitive inspection routes serve, built from the stack's counters, config and learned state.
import { LAYER_IDS, LayerId } from "../../contract/cognitive-layers.ts";
import { AppError } from "../../contract/errors.ts";
import type { CognitiveResponses } from "../../contract/cognitive.ts";
import type { OpenLoopsResponse } from "../../contract/open-loops.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { latestAblation, latestStress, tunerDecisions } from "../../cognitive/records.ts";
import type { CognitiveStack } from "../../cognitive/stack.ts";
import { cognitiveSnapshot, type LayerSummary } from "../../cognitive/stats.ts";
import type { ChunkTallies } from "../../cognitive/tallies.ts";

type R = CognitiveResponses;

/** One workspace's counters; everything else the snapshot reads is global (config, tuner, ablation). */
export const snapshotOf = async (stack: CognitiveStack, workspaceId: string): Promise<R["cognitive_snapshot"]> => {
  const snap = await cognitiveSnapshot(stack.pipeline, stack.store, { workspaceId });
  return {
    workspace_id: workspaceId,
    layers: snap.layers,
    tuner: snap.tuner,
    ablation: snap.ablation,
    stress: snap.stress,
  };
};

export const layersOf = async (stack: CognitiveStack, workspaceId: string): Promise<LayerSummary[]> =>
  (await cognitiveSnapshot(stack.pipeline, stack.store, { workspaceId })).layers;

const summaryOf = async (stack: CognitiveStack, workspaceId: string, id: LayerId): Promise<LayerSummary> =>
  (await layersOf(stack, workspaceId)).find((l) => l.id === id)!;

export async function layerState(
  stack: CognitiveStack,
  workspaceId: string,
  id: string,
): Promise<R["cognitive_layer"]> {
  const known = LayerId.safeParse(id);
  if (!known.success) throw new AppError("not_found", `no layer '${id}'`, { valid_layer_ids: [...LAYER_IDS] });
  const layer = stack.pipeline.layers.find((l) => l.id === id);
  const params = (stack.pipeline.current.params as unknown as Record<string, unknown>)[known.data] ?? null;
  return {
    ...(await summaryOf(stack, workspaceId, known.data)),
    optional: layer?.optional ?? false,
    counter_names: [...(layer?.counters ?? [])],
    params,
    state: layer?.inspect?.(workspaceId) ?? null,
  };
}

export async function healthOf(stack: CognitiveStack, workspaceId: string): Promise<R["cognitive_health"]> {
  const cost = stack.pipeline.costPerLayer();
  const layers = (await layersOf(stack, workspaceId)).map((l) => ({
    id: l.id,
    enabled: l.enabled,
    failures: l.counters.failures ?? 0,
    calls_in_process: cost[l.id]?.calls ?? 0,
    failures_in_process: cost[l.id]?.failures ?? 0,
  }));
  return { status: "ok", layers, counter_flush_failures: stack.pipeline.counters.flushFailures };
}

export async function stateOf(stack: CognitiveStack, limit: number): Promise<R["cognitive_state"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    enabled: { ...enabled },
    params: { ...params },
    tuner_decisions: await tunerDecisions(stack.store, { limit }),
    ablation: await latestAblation(stack.store),
    stress: await latestStress(stack.store),
    cost_in_process: stack.pipeline.costPerLayer(),
  };
}

export async function goalsOf(
  stack: CognitiveStack,
  workspaceId: string,
  loops: OpenLoopsResponse,
): Promise<R["cognitive_goals"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    layer: "sankalpa",
    enabled: enabled.sankalpa,
    boost: params.sankalpa.boost,
    counters: (await summaryOf(stack, workspaceId, "sankalpa")).counters,
    open_loops: loops.loops,
    truncated: loops.truncated,
  };
}

const tallyOf = (tallies: ChunkTallies, workspaceId: string) =>
  tallies.summary(workspaceId)[workspaceId] ?? { chunks: 0, total: 0 };

export async function karmaOf(stack: CognitiveStack, workspaceId: string): Promise<R["cognitive_karma"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    layer: "karma",
    enabled: enabled.karma,
    weight: params.karma.weight,
    counters: (await summaryOf(stack, workspaceId, "karma")).counters,
    ledger: tallyOf(stack.karma, workspaceId),
  };
}

export async function chittaOf(stack: CognitiveStack, workspaceId: string): Promise<R["cognitive_chitta"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    layer: "chitta",
    enabled: enabled.chitta,
    ...params.chitta,
    counters: (await summaryOf(stack, workspaceId, "chitta")).counters,
    impressions: tallyOf(stack.impressions, workspaceId),
  };
}

export async function identityOf(stack: CognitiveStack, call: CallContext): Promise<R["cognitive_identity"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    layer: "ahamkara",
    enabled: enabled.ahamkara,
    workspace_id: call.workspaceId,
    workspace_name: call.workspaceName,
    actor_id: call.actorId,
    weight: params.ahamkara.weight,
    counters: (await summaryOf(stack, call.workspaceId, "ahamkara")).counters,
  };
}

export async function functionalStateOf(
  stack: CognitiveStack,
  workspaceId: string,
): Promise<R["cognitive_functional_state"]> {
  const { enabled, params } = stack.pipeline.current;
  return {
    prana: {
      budget_ms: params.prana.budgetMs,
      max_query_terms: params.prana.maxQueryTerms,
      counters: (await summaryOf(stack, workspaceId, "prana")).counters,
    },
    enabled_layers: LAYER_IDS.filter((id) => enabled[id]),
    disabled_layers: LAYER_IDS.filter((id) => !enabled[id]),
    health: "ok",
  };
}
