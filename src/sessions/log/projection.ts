// What a session's log says about it now: its state, an open turn, a pending approval, resume points, sub-agents and
// artifacts. The log is authoritative; all of this is recomputed from it (after a restart too).
import { endsTurnSegment, type SessionEventData } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { eventId, resumeCursor } from "../ids.ts";

type State = SessionEventData<"session_state">;
type Approval = SessionEventData<"approval_required">;

const data = <T>(e: StreamEvent) => e.data as T;

/** The last event of what one message (or one decision) streams back: the turn ended, failed, or waits for an operator. */
export const endsSegment = (e: StreamEvent) => endsTurnSegment(e.type, e.data);

/** The events of the session's latest turn, from its turn_start on. */
export const currentTurn = (events: readonly StreamEvent[]) =>
  events.slice(
    Math.max(
      0,
      events.findLastIndex((e) => e.type === "turn_start"),
    ),
  );

export const latestStateEvent = (events: readonly StreamEvent[]) => events.findLast((x) => x.type === "session_state");

export const latestState = (events: readonly StreamEvent[]): State | null => {
  const e = latestStateEvent(events);
  return e ? data<State>(e) : null;
};

/** Statuses a background run leaves its session in while it is live (waiting for an approval it asked for is one). */
const LIVE = new Set(["running", "awaiting_approval"]);

/**
 * Whether `latest` is still the run's whose state is `run`: its attempt, in its process, running or waiting on its own
 * approval. Another is what another process logged meanwhile (a takeover's recovery, an operator's pause or cancel).
 */
export const heldByRun =
  (run: State) =>
  (latest: State): boolean =>
    LIVE.has(latest.status) && latest.process_id === run.process_id && latest.attempt_count === run.attempt_count;

/** The turn that started (or was resumed by a decision) and has not ended. */
export function openTurn(events: readonly StreamEvent[]): { turnId: string } | null {
  let turnId: string | null = null;
  let open = false;
  for (const e of events) {
    if (e.type === "turn_start") [turnId, open] = [data<{ turn_id: string }>(e).turn_id, true];
    else if (e.type === "approval_applied") open = turnId !== null;
    else if (e.type === "turn_end") open = false;
  }
  return open && turnId ? { turnId } : null;
}

/** The approval the session waits on: the last one asked, whose turn paused for it (not one cut off by a crash), not yet decided. */
export function pendingApproval(events: readonly StreamEvent[]): Approval | null {
  const at = events.findLastIndex((e) => e.type === "approval_required");
  if (at < 0) return null;
  const asked = data<Approval>(events[at]!);
  const after = events.slice(at + 1);
  const paused = after.some((e) => e.type === "turn_end" && data<{ status: string }>(e).status === "awaiting_approval");
  const settled = after.some(
    (e) =>
      e.type === "error" ||
      (e.type === "approval_applied" && data<{ request_id: string }>(e).request_id === asked.request_id),
  );
  return paused && !settled ? asked : null;
}

export const isDecided = (events: readonly StreamEvent[], requestId: string) =>
  events.some((e) => e.type === "approval_applied" && data<{ request_id: string }>(e).request_id === requestId);

export interface ResumePoint {
  resume_cursor: string;
  event_id: string;
  kind: "checkpoint" | "approval" | "turn";
  label: string;
  at: string;
}

/** Oldest first: checkpoints (a branch's resume_seed among them), decided approvals and completed turns. */
export function resumePoints(events: readonly StreamEvent[]): ResumePoint[] {
  const out: ResumePoint[] = [];
  const point = (
    e: StreamEvent,
    kind: ResumePoint["kind"],
    label: string,
    cursor = resumeCursor({ sessionId: e.stream, seq: e.seq }),
  ) =>
    out.push({
      resume_cursor: cursor,
      event_id: eventId(e.stream, e.seq),
      kind,
      label,
      at: new Date(e.at).toISOString(),
    });
  const messages = new Map<string, string>();
  for (const e of events) {
    if (e.type === "turn_start")
      messages.set(data<{ turn_id: string }>(e).turn_id, data<{ message: string }>(e).message);
    if (e.type === "session_checkpoint")
      point(
        e,
        "checkpoint",
        `${data<{ checkpoint_type: string }>(e).checkpoint_type}: ${data<{ summary_text: string }>(e).summary_text}`,
      );
    // A compaction's own cursor: the conversation as it stood just before the fold.
    if (e.type === "context_compacted")
      point(
        e,
        "checkpoint",
        `compaction: ${data<{ original_count: number }>(e).original_count} messages folded`,
        data<{ resume_cursor: string }>(e).resume_cursor,
      );
    if (e.type === "approval_applied")
      point(e, "approval", `${data<{ decision: string }>(e).decision} ${data<{ tool_name: string }>(e).tool_name}`);
    if (e.type === "turn_end" && data<{ status: string }>(e).status === "completed")
      point(e, "turn", `after "${clip(messages.get(data<{ turn_id: string }>(e).turn_id) ?? "", 80)}"`);
  }
  return out;
}

/** The latest snapshot of each sub-agent, in order of first appearance. */
export function subagents(events: readonly StreamEvent[]): Record<string, unknown>[] {
  const latest = new Map<string, Record<string, unknown>>();
  for (const e of events)
    if (e.type === "subagent_event")
      latest.set(data<{ agent_id: string }>(e).agent_id, data<Record<string, unknown>>(e));
  return [...latest.values()];
}

/** What tools handed back as artifacts (files written in the session's task workspace), newest first. */
export function artifacts(events: readonly StreamEvent[]): Record<string, unknown>[] {
  return events
    .filter((e) => e.type === "tool_outcome" && data<{ status: string }>(e).status === "artifact")
    .map((e) => ({
      type: "file",
      tool_call_id: data<{ tool_call_id: string }>(e).tool_call_id,
      event_id: eventId(e.stream, e.seq),
      ...data<{ result: Record<string, unknown> }>(e).result,
    }))
    .reverse();
}

export const turnCount = (events: readonly StreamEvent[]) => events.filter((e) => e.type === "turn_start").length;

export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
