// The shapes that flow through the cognitive pipeline: a query plan, the evidence it found, the answer decision.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { ChunkFilter } from "../search/types.ts";
import type { ChunkRecord } from "../ports/documents.ts";
import type { Candidate, ExpansionTerm, Mode } from "../search/types.ts";
import type { CognitiveParams } from "./params.ts";

export type { LayerId };

/** Which public operation is thinking. */
export type Op = "recall" | "pack" | "answer";

/** What will be searched for, built up by the query-side layers before retrieval. */
export interface QueryState {
  readonly op: Op;
  readonly workspaceId: string;
  readonly actorId: string | null;
  /** The caller's text; responses echo this. */
  readonly original: string;
  /** What the retriever searches with (indriya cleans it, prana may shorten it). */
  readonly text: string;
  /** The caller's mode; `mode` is what runs (without sabha, hybrid runs as one retriever: lexical). */
  readonly requestedMode: Mode;
  readonly mode: Mode;
  readonly k: number;
  readonly filter: ChunkFilter;
  /** manas' (and ahamkara's) weighted extra terms, already in BM25 term form. */
  readonly expansion: readonly ExpansionTerm[];
  /** sabha's scale on the dense weight. */
  readonly denseScale: number;
  /** Signals layers leave for later layers and the trace (urgency, goal, ...). */
  readonly signals: Readonly<Record<string, string | number | boolean>>;
  /** prana's deadline (performance.now() ms): optional layers are skipped past it; null = no budget. */
  readonly deadline: number | null;
}

/** One retrieved chunk as the evidence-side layers see it; `score` starts as the calibrated retrieval score. */
export interface Evidence {
  readonly candidate: Candidate;
  readonly chunk: ChunkRecord;
  readonly score: number;
  /** Marks layers put on it (duplicate, injection, ...). */
  readonly flags: readonly string[];
}

export interface EvidenceState {
  readonly query: QueryState;
  /** In the order the operation will consume them. */
  readonly items: readonly Evidence[];
  /** How many items the operation will use: layers look at this head (plus a margin), not the whole pool. */
  readonly need: number;
  /** MMR trade-off requested by a pack (0 for recall and answers). */
  readonly diversity: number;
  /** Items removed (not just demoted) as near-duplicates: a pack reports them. */
  readonly droppedDuplicates: number;
}

export type AnswerReason = "answered" | "low_confidence" | "no_evidence";

/** The answer/abstain decision over an extractive answer plan. */
export interface AnswerState {
  readonly confidence: number;
  readonly threshold: number;
  /** Citations the answer would carry. */
  readonly citations: number;
  readonly accept: boolean;
  readonly reason: AnswerReason;
}

/** What a hook gets besides its state. */
export interface LayerContext {
  readonly params: CognitiveParams;
  /** Adds to one of this layer's counters; committed only when the hook succeeds (and the request is real). */
  count(counter: string, n?: number): void;
}

/** One layer of the stack: a job, its counters, and the hooks it runs in. Hooks return new state, never mutate their input. */
export interface Layer {
  readonly id: LayerId;
  /** One line: what it does. */
  readonly job: string;
  /** The counters it may increment. */
  readonly counters: readonly string[];
  /** True when it may be skipped once prana's budget is spent. */
  readonly optional?: boolean;
  perceive?(q: QueryState, ctx: LayerContext): QueryState;
  weigh?(e: EvidenceState, ctx: LayerContext): EvidenceState;
  decide?(a: AnswerState, e: EvidenceState, ctx: LayerContext): AnswerState;
  /** Learning after a real request (impressions, outcomes, tallies); never runs for a side-effect-free process() call. */
  commit?(e: EvidenceState, a: AnswerState | null): void;
  /** What the layer has learned, for inspection (read-only). */
  inspect?(workspaceId?: string): unknown;
}
