// The AG-UI state of a Smriti thread (README "AG-UI"): what STATE_SNAPSHOT opens each run with and STATE_DELTA patches.
import type { SessionEventData } from "../../contract/events.ts";

export interface AgentState {
  /** The chat session the thread runs in (its native routes: /chat/sessions/{id}, /sessions/{id}/events/stream). */
  session_id: string;
  /** The native turn the run drives; null before its turn_start. */
  turn_id: string | null;
  /** The answer's citations (native `response`), each with chunk_hash, source_path, anchor, text_span, score. */
  citations: SessionEventData<"response">["citations"];
  /** The turn's context pack (native `retrieval`): items, used_tokens, budget_tokens. */
  pack: SessionEventData<"retrieval">["pack"];
  /** The cognition summary (native `cognition`): the layers that changed the turn's look-ups and any guardrail flags. */
  cognition: { layers: string[]; guardrails: string[] } | null;
}

export const initialState = (sessionId: string): AgentState => ({
  session_id: sessionId,
  turn_id: null,
  citations: [],
  pack: null,
  cognition: null,
});
