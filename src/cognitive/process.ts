// The bounded, side-effect-free processing call (POST /sdk/cognitive/process): a question through the stack; only its trace is written.
import { randomUUID } from "node:crypto";
import type { Store } from "../ports.ts";
import type { CallContext } from "../services/context.ts";
import type { GroundedService } from "../services/grounded.ts";
import type { LayerSwitches } from "./params.ts";
import type { TraceStep } from "./trace.ts";
import type { AnswerReason } from "./types.ts";

export interface ProcessResult {
  trace_id: string;
  query: string;
  /** What the retriever searched with after indriya and prana. */
  perceived: string;
  confidence: number;
  decision: AnswerReason;
  signals: Record<string, string | number | boolean>;
  expansion: { term: string; weight: number }[];
  /** The best evidence after the layers: source, anchor, score, layer flags. */
  evidence: { chunk_hash: string; source_path: string; anchor: string; score: number; flags: readonly string[] }[];
  steps: TraceStep[];
}

/** The newest traces kept per workspace (older ones are dropped as new ones arrive). */
export const TRACES_KEPT = 1000;

/** process() traces in the store, read back by GET /sdk/cognitive/traces/{trace_id}: after a restart too, and from the CLI on the same data. */
export class TraceLog {
  constructor(
    private readonly store: Pick<Store, "putTrace" | "getTrace">,
    private readonly now: () => number = Date.now,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  /** Stores the trace; a failed write (a locked or full disk) is logged, not thrown: the answer stands, only its read-back is lost. */
  put(r: ProcessResult, workspaceId: string): void {
    try {
      this.store.putTrace(workspaceId, r.trace_id, this.now(), r, TRACES_KEPT);
    } catch (err) {
      this.log(`trace ${r.trace_id}: not stored (${(err as Error).message})`);
    }
  }

  /** The trace, only within `workspaceId` (a caller never reads another workspace's trace). */
  get(id: string, workspaceId: string): ProcessResult | undefined {
    return this.store.getTrace(workspaceId, id) as ProcessResult | undefined; // written by put() only
  }
}

/** Runs the stack over `query` as a grounded question would, without an audit event, counters or learning. */
export async function processQuery(grounded: GroundedService, traces: TraceLog, call: CallContext, input: { query: string; k?: number | undefined; layers?: LayerSwitches | undefined }): Promise<ProcessResult> {
  const d = await grounded.deliberate(call, { question: input.query, k: input.k ?? 8 }, input.layers);
  const q = d.thought.query;
  const result: ProcessResult = {
    trace_id: `trace_${randomUUID()}`,
    query: input.query,
    perceived: q.text,
    confidence: Number(d.decision.confidence.toFixed(6)),
    decision: d.decision.reason,
    signals: { ...q.signals },
    expansion: q.expansion.map((e) => ({ ...e })),
    evidence: (d.thought.evidence?.items ?? []).slice(0, input.k ?? 8).map((i) => ({ chunk_hash: i.chunk.chunkHash, source_path: i.chunk.sourcePath, anchor: i.chunk.anchor, score: Number(i.score.toFixed(6)), flags: i.flags })),
    steps: d.thought.trace,
  };
  traces.put(result, call.workspaceId);
  return result;
}
