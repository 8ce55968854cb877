// The cognitive inspection calls of the client (spec rule 4 of "Cognitive inspection routes"), typed from the contract; no node: imports.
import type { LayerId } from "../contract/cognitive-layers.ts";
import { COGNITIVE_PREFIX, type CognitiveProcessRequest, type CognitiveResponses } from "../contract/cognitive.ts";

/** Sends one request and returns the parsed body (throws SmritiError on 4xx/5xx). */
export type Send = (method: "GET" | "POST", path: string, body?: unknown) => Promise<unknown>;

type R = CognitiveResponses;

export function cognitiveCalls(send: Send) {
  const get = <K extends keyof R>(path: string) => send("GET", `${COGNITIVE_PREFIX}/${path}`) as Promise<R[K]>;
  return {
    /** process_cognitive: POST /sdk/cognitive/process, a pass of `query` through the stack that writes only its trace (trace_id, confidence, decision). */
    processCognitive: (query: string, opts: Omit<CognitiveProcessRequest, "query"> = {}) => send("POST", `${COGNITIVE_PREFIX}/process`, { ...opts, query }) as Promise<R["process"]>,
    /** cognitive_layers: GET /sdk/cognitive/layers, the thirteen layers with job, switch, counters and uplift. */
    cognitiveLayers: () => get<"layers">("layers"),
    /** cognitive_layer_state(layer_id): GET /sdk/cognitive/layers/{layer_id}, one layer's params and learned state. */
    cognitiveLayerState: (layerId: LayerId) => get<"layer">(`layers/${encodeURIComponent(layerId)}`),
    /** cognitive_stack_state(limit): GET /sdk/cognitive/state, switches, params, the latest `limit` tuner decisions (1-200). */
    cognitiveStackState: (limit = 20) => get<"state">(`state?limit=${encodeURIComponent(limit)}`),
    /** cognitive_goals: GET /sdk/cognitive/goals, sankalpa's view (goal-query counters and the open loops it boosts). */
    cognitiveGoals: () => get<"goals">("goals"),
    /** cognitive_karma: GET /sdk/cognitive/karma, the outcome ledger summary. */
    cognitiveKarma: () => get<"karma">("karma"),
    /** cognitive_chitta: GET /sdk/cognitive/chitta, the impressions summary. */
    cognitiveChitta: () => get<"chitta">("chitta"),
    /** cognitive_identity: GET /sdk/cognitive/identity, ahamkara's view of the caller (workspace and actor). */
    cognitiveIdentity: () => get<"identity">("identity"),
    /** cognitive_functional_state: GET /sdk/cognitive/functional-state, prana's budget and which layers run. */
    cognitiveFunctionalState: () => get<"functional-state">("functional-state"),
    /** GET /sdk/cognitive/health: ok plus layer failure counts. */
    cognitiveHealth: () => get<"health">("health"),
    /** GET /sdk/cognitive/snapshot: the workspace's counters, tuner decisions and latest ablation. */
    cognitiveSnapshot: () => get<"snapshot">("snapshot"),
    /** GET /sdk/cognitive/traces/{trace_id}: a processCognitive trace, read back from the store (the newest 1,000 per workspace). */
    cognitiveTrace: (traceId: string) => get<"trace">(`traces/${encodeURIComponent(traceId)}`),
  };
}
