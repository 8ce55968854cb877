// The cognitive inspection calls of the client (spec rule 4 of "Cognitive inspection routes"), rows of the route table; no node: imports.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { CognitiveProcessRequest } from "../contract/cognitive.ts";
import type { JsonRouteId, RouteInput, RouteOutput } from "../contract/routes.ts";

/** The client's call of one JSON route. */
type Call = <K extends JsonRouteId>(id: K, input: RouteInput<K>) => Promise<RouteOutput<K>>;

/** The spec's snake_case names (rule 4), then the camelCase names the README documented first, as aliases of the same calls. */
export function cognitiveCalls(call: Call) {
  const calls = {
    /** process_cognitive: POST /sdk/cognitive/process, a pass of `query` through the stack that writes only its trace (trace_id, confidence, decision). */
    process_cognitive: (query: string, opts: Omit<CognitiveProcessRequest, "query"> = {}) =>
      call("cognitive_process", { ...opts, query }),
    /** cognitive_layers: GET /sdk/cognitive/layers, the thirteen layers with job, switch, counters and uplift. */
    cognitive_layers: () => call("cognitive_layers", {}),
    /** cognitive_layer_state(layer_id): GET /sdk/cognitive/layers/{layer_id}, one layer's params and learned state. */
    cognitive_layer_state: (layerId: LayerId) => call("cognitive_layer", { layer_id: layerId }),
    /** cognitive_stack_state(limit): GET /sdk/cognitive/state, switches, params, the latest `limit` tuner decisions (1-200). */
    cognitive_stack_state: (limit = 20) => call("cognitive_state", { limit }),
    /** cognitive_goals: GET /sdk/cognitive/goals, sankalpa's view (goal-query counters and the open loops it boosts). */
    cognitive_goals: () => call("cognitive_goals", {}),
    /** cognitive_karma: GET /sdk/cognitive/karma, the outcome ledger summary. */
    cognitive_karma: () => call("cognitive_karma", {}),
    /** cognitive_chitta: GET /sdk/cognitive/chitta, the impressions summary. */
    cognitive_chitta: () => call("cognitive_chitta", {}),
    /** cognitive_identity: GET /sdk/cognitive/identity, ahamkara's view of the caller (workspace and actor). */
    cognitive_identity: () => call("cognitive_identity", {}),
    /** cognitive_functional_state: GET /sdk/cognitive/functional-state, prana's budget and which layers run. */
    cognitive_functional_state: () => call("cognitive_functional_state", {}),
    /** GET /sdk/cognitive/health: ok plus layer failure counts. */
    cognitive_health: () => call("cognitive_health", {}),
    /** GET /sdk/cognitive/snapshot: the workspace's counters, tuner decisions and latest ablation. */
    cognitive_snapshot: () => call("cognitive_snapshot", {}),
    /** GET /sdk/cognitive/traces/{trace_id}: a process_cognitive trace, read back from the store (the newest 1,000 per workspace). */
    cognitive_trace: (traceId: string) => call("cognitive_trace", { trace_id: traceId }),
  };
  return {
    ...calls,
    processCognitive: calls.process_cognitive,
    cognitiveLayers: calls.cognitive_layers,
    cognitiveLayerState: calls.cognitive_layer_state,
    cognitiveStackState: calls.cognitive_stack_state,
    cognitiveGoals: calls.cognitive_goals,
    cognitiveKarma: calls.cognitive_karma,
    cognitiveChitta: calls.cognitive_chitta,
    cognitiveIdentity: calls.cognitive_identity,
    cognitiveFunctionalState: calls.cognitive_functional_state,
    cognitiveHealth: calls.cognitive_health,
    cognitiveSnapshot: calls.cognitive_snapshot,
    cognitiveTrace: calls.cognitive_trace,
  };
}
