// The bounded, side-effect-free processing call (POST /sdk/cognitive/process): a question through the stack; only its trace is written.
import { randomUUID } from "node:crypto";
import type { CallContext } from "../../ports/call-context.ts";
import type { GroundedService } from "../answering/grounded.ts";
import type { TraceLog } from "./traces.ts";
import type { LayerSwitches } from "../../cognitive/params.ts";
import type { CognitiveTrace } from "../../contract/cognitive.ts";

/** Runs the stack over `query` as a grounded question would, without an audit event, counters or learning. */
export async function processQuery(
  grounded: GroundedService,
  traces: TraceLog,
  call: CallContext,
  input: { query: string; k?: number | undefined; layers?: LayerSwitches | undefined },
): Promise<CognitiveTrace> {
  const d = await grounded.deliberate(call, { question: input.query, k: input.k ?? 8 }, input.layers);
  const q = d.thought.query;
  const result: CognitiveTrace = {
    trace_id: `trace_${randomUUID()}`,
    query: input.query,
    perceived: q.text,
    confidence: Number(d.decision.confidence.toFixed(6)),
    decision: d.decision.reason,
    signals: { ...q.signals },
    expansion: q.expansion.map((e) => ({ ...e })),
    evidence: (d.thought.evidence?.items ?? []).slice(0, input.k ?? 8).map((i) => ({
      chunk_hash: i.chunk.chunkHash,
      source_path: i.chunk.sourcePath,
      anchor: i.chunk.anchor,
      score: Number(i.score.toFixed(6)),
      flags: i.flags,
    })),
    steps: d.thought.trace,
  };
  await traces.put(result, call.workspaceId);
  return result;
}
