// The cognitive inspection routes (spec, "Cognitive inspection routes"): request bounds and response shapes, read-only and advisory.
import { z } from "zod";
import { LAYER_IDS, LayerId } from "./cognitive-layers.ts";
import { limits } from "./limits.ts";
import { OpenLoop } from "./open-loops.ts";
import { op } from "./route.ts";

/** Where the inspection routes live (outside /v1: advisory, not part of the Memory API table). */
export const COGNITIVE_PREFIX = "/sdk/cognitive";

const Counters = z
  .record(z.string(), z.number())
  .describe("Counter name -> total in the caller's workspace (persisted plus pending).");
const Uplift = z
  .record(z.string(), z.number())
  .nullable()
  .describe("Metric -> (layer on) - (layer off) from the latest ablation run; null when none.");
const StressUplift = z
  .record(z.string(), z.number())
  .nullable()
  .describe(
    "'<perturbation> <metric>' -> (shipped defaults) - (this layer off) on real data perturbed for the layer's job, from the latest stress run (`npm run eval -- stress`); null when it has no case for the layer.",
  );

export const CognitiveLayer = z.object({
  id: LayerId,
  job: z.string().describe("What the layer does, in one line."),
  enabled: z.boolean(),
  counters: Counters,
  uplift: Uplift,
  stress_uplift: StressUplift,
});
export type CognitiveLayer = z.infer<typeof CognitiveLayer>;

export const CognitiveLayersResponse = z.object({
  layers: z.array(CognitiveLayer).length(LAYER_IDS.length).describe("All thirteen layers in the spec's order."),
});

export const CognitiveLayerState = CognitiveLayer.extend({
  optional: z.boolean().describe("True when prana's budget may skip it."),
  counter_names: z.array(z.string()).describe("The counters this layer may increment."),
  params: z.unknown().describe("The layer's current parameters (null when it has none)."),
  state: z
    .unknown()
    .describe("What the layer has learned in this workspace (Layer.inspect), null when it learns nothing."),
});

export const CognitiveHealthResponse = z.object({
  status: z.literal("ok").describe("The stack always serves: a failing layer is skipped and counted."),
  layers: z.array(
    z.object({
      id: LayerId,
      enabled: z.boolean(),
      failures: z.number().int().describe("Failures counted in this workspace (persisted)."),
      calls_in_process: z.number().int(),
      failures_in_process: z.number().int(),
    }),
  ),
  counter_flush_failures: z.number().int(),
});

const Flag = z.union([z.number(), z.boolean()]);

/** One tuner step (src/cognitive/records.ts TunerDecision) with when it was recorded. */
export const TunerDecisionView = z.object({
  run_id: z.string(),
  layer: LayerId,
  parameter: z.string(),
  before: Flag,
  after: Flag,
  metric: z.string(),
  held_in_before: z.number(),
  held_in_after: z.number(),
  held_out_before: z.number().nullable(),
  held_out_after: z.number().nullable(),
  kept: z.boolean(),
  worst_part: z.string().optional(),
  worst_part_change: z.number().optional(),
  at: z.number(),
});

const Figures = z.record(z.string(), z.record(z.string(), z.number()));
const AblationView = z
  .object({
    run_id: z.string(),
    commit: z.string(),
    metrics: z.array(z.string()),
    all_on: z.record(z.string(), z.number()),
    uplift: Figures,
    off: Figures,
    at: z.number(),
  })
  .nullable()
  .describe("The latest ablation run (uplift = on - off per layer and metric); null when none was recorded.");

/** One stress run (src/cognitive/records.ts StressFigures) with when it was recorded. */
export const StressView = z
  .object({
    run_id: z.string(),
    commit: z.string(),
    cases: z.array(
      z.object({
        id: z.string().describe("The perturbation, e.g. ingested-twice."),
        layer: LayerId,
        metric: z.string(),
        queries: z.number().int(),
        unperturbed: z.number().describe("The metric on the unperturbed data with the shipped defaults."),
        on: z.number().describe("On the perturbed data with the shipped defaults."),
        off: z.number().describe("On the perturbed data with this layer off."),
        uplift: z.number().describe("on - off."),
        changed: z.number().int().describe("Queries whose value differs between on and off."),
      }),
    ),
    at: z.number(),
  })
  .nullable()
  .describe("The latest stress run (real data perturbed for one layer's job each); null when none was recorded.");

export const CognitiveSnapshotResponse = z.object({
  workspace_id: z.string(),
  layers: z.array(CognitiveLayer),
  tuner: z.object({ tried: z.number().int(), kept: z.number().int(), decisions: z.array(TunerDecisionView) }),
  ablation: AblationView,
  stress: StressView,
});

export const CognitiveStateRequest = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe("Most recent tuner decisions to include (1-200, default 20)."),
});

export const CognitiveStateResponse = z.object({
  enabled: z.record(LayerId, z.boolean()),
  params: z.record(z.string(), z.unknown()).describe("Every layer's current parameters."),
  tuner_decisions: z.array(TunerDecisionView).describe("Newest first, at most `limit`."),
  ablation: AblationView,
  stress: StressView,
  cost_in_process: z.record(
    z.string(),
    z.object({ calls: z.number().int(), ms: z.number(), failures: z.number().int() }),
  ),
});

export const CognitiveGoalsResponse = z.object({
  layer: z.literal("sankalpa"),
  enabled: z.boolean(),
  boost: z.number().describe("Logit boost for evidence holding an open loop, on goal queries."),
  counters: Counters,
  open_loops: z.array(OpenLoop).describe("The unresolved markers sankalpa would boost (first page)."),
  truncated: z.boolean(),
});

const Tally = z.object({
  chunks: z.number().int().describe("Chunks with a tally in this workspace."),
  total: z.number().describe("Sum of the tallies."),
});

export const CognitiveKarmaResponse = z.object({
  layer: z.literal("karma"),
  enabled: z.boolean(),
  weight: z.number(),
  counters: Counters,
  ledger: Tally.describe("Net reported outcomes (used minus unhelpful)."),
});

export const CognitiveChittaResponse = z.object({
  layer: z.literal("chitta"),
  enabled: z.boolean(),
  recency: z.number(),
  frequency: z.number(),
  counters: Counters,
  impressions: Tally.describe("Times chunks were served."),
});

export const CognitiveIdentityResponse = z.object({
  layer: z.literal("ahamkara"),
  enabled: z.boolean(),
  workspace_id: z.string(),
  workspace_name: z.string(),
  actor_id: z
    .string()
    .nullable()
    .describe("The x-svc-actor-id first-person words resolve to; null when none was sent."),
  weight: z.number(),
  counters: Counters,
});

export const CognitiveFunctionalStateResponse = z.object({
  prana: z.object({ budget_ms: z.number(), max_query_terms: z.number().int(), counters: Counters }),
  enabled_layers: z.array(LayerId),
  disabled_layers: z.array(LayerId),
  health: z.literal("ok"),
});

export const CognitiveProcessRequest = z
  .strictObject({
    query: z
      .string()
      .min(1)
      .max(limits.maxQueryChars)
      .describe(`The question to run through the stack (1-${limits.maxQueryChars} characters).`),
    k: z.number().int().min(1).max(50).optional().describe("Evidence items to consider (1-50, default 8)."),
    layers: z.partialRecord(LayerId, z.boolean()).optional().describe("Per-call layer switches."),
  })
  .describe(
    "A bounded pass of a query through the stack: no audit event, counters or learning; only its trace is stored.",
  );
export type CognitiveProcessRequest = z.input<typeof CognitiveProcessRequest>;

/** What one layer hook did in one request: ran; off (switched off); skipped (prana's budget was spent); failed (threw: skipped, counted, request went on). */
export const TraceStep = z.object({
  layer: LayerId,
  stage: z.enum(["perceive", "weigh", "decide", "commit"]),
  status: z.enum(["ran", "off", "skipped", "failed"]),
  ms: z.number(),
  counts: z.record(z.string(), z.number()).optional(),
  error: z.string().optional(),
});

export const CognitiveTrace = z.object({
  trace_id: z.string(),
  query: z.string(),
  perceived: z.string().describe("What the retriever searched with after indriya and prana."),
  confidence: z.number(),
  decision: z.enum(["answered", "low_confidence", "no_evidence"]),
  signals: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  expansion: z.array(z.object({ term: z.string(), weight: z.number() })),
  evidence: z.array(
    z.object({
      chunk_hash: z.string(),
      source_path: z.string(),
      anchor: z.string(),
      score: z.number(),
      flags: z.array(z.string()).readonly(),
    }),
  ),
  steps: z.array(TraceStep),
});

export type TraceStep = z.infer<typeof TraceStep>;
export type CognitiveTrace = z.infer<typeof CognitiveTrace>;

export const TraceIdParam = z.string().min(1).max(200);

const TAG = "cognitive inspection";
const NoInput = z.object({});
/** A path segment naming a layer: an unknown one is 404 with the valid ids (the handler says so), not a 400. */
const LayerIdParam = z.object({ layer_id: z.string().meta({ enum: [...LAYER_IDS] }) });

/** The inspection routes as rows of the route table: advisory and read-only (only /process writes: its trace), no MCP tools. */
export const cognitiveRoutes = {
  cognitive_health: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/health`,
    tag: TAG,
    summary: "Whether the stack serves, and each layer's failures",
    input: NoInput,
    output: CognitiveHealthResponse,
  }),
  cognitive_snapshot: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/snapshot`,
    tag: TAG,
    summary: "Every layer with its counters and uplift, the tuner's decisions and the latest ablation",
    input: NoInput,
    output: CognitiveSnapshotResponse,
  }),
  cognitive_layers: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/layers`,
    tag: TAG,
    summary: "The thirteen layers: job, switch, counters, uplift",
    input: NoInput,
    output: CognitiveLayersResponse,
  }),
  cognitive_layer: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/layers/{layer_id}`,
    tag: TAG,
    summary:
      "One layer: its parameters and what it has learned in this workspace (404 with the valid ids for an unknown one)",
    input: LayerIdParam,
    output: CognitiveLayerState,
  }),
  cognitive_state: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/state`,
    tag: TAG,
    summary: "Switches, parameters, the latest tuner decisions, ablation and in-process cost",
    input: CognitiveStateRequest,
    output: CognitiveStateResponse,
  }),
  cognitive_goals: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/goals`,
    tag: TAG,
    summary: "sankalpa: the open loops it boosts on goal queries",
    input: NoInput,
    output: CognitiveGoalsResponse,
  }),
  cognitive_karma: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/karma`,
    tag: TAG,
    summary: "karma: the outcome ledger fed by /v1/memory/feedback",
    input: NoInput,
    output: CognitiveKarmaResponse,
  }),
  cognitive_chitta: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/chitta`,
    tag: TAG,
    summary: "chitta: impressions of served chunks",
    input: NoInput,
    output: CognitiveChittaResponse,
  }),
  cognitive_identity: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/identity`,
    tag: TAG,
    summary: "ahamkara: who first-person words resolve to for this caller",
    input: NoInput,
    output: CognitiveIdentityResponse,
  }),
  cognitive_functional_state: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/functional-state`,
    tag: TAG,
    summary: "prana's budget and which layers are on",
    input: NoInput,
    output: CognitiveFunctionalStateResponse,
  }),
  cognitive_process: op({
    method: "POST",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/process`,
    tag: TAG,
    summary:
      "A bounded pass of a query through the stack (no audit event, counters or learning; it stores only its trace); returns trace_id and confidence",
    input: CognitiveProcessRequest,
    output: CognitiveTrace,
  }),
  cognitive_trace: op({
    method: "GET",
    scope: "read",
    path: `${COGNITIVE_PREFIX}/traces/{trace_id}`,
    tag: TAG,
    summary: "A trace of /process, in its workspace (stored; the newest 1000 per workspace are kept)",
    input: z.object({ trace_id: TraceIdParam }),
    output: CognitiveTrace,
  }),
};

/** Each inspection route's response, by route id. */
export type CognitiveResponses = {
  [K in keyof typeof cognitiveRoutes]: z.infer<(typeof cognitiveRoutes)[K]["output"]>;
};
