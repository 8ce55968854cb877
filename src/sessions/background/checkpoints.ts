// A background session's checkpoints: numbered in its log, each with the resume cursor of the last event read when it
// was decided (its cursor resumes or branches from there: a run's output logged meanwhile elsewhere is after it),
// logged with the events that go with it in one write.
import type { SessionEventData, SessionEventType } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import type { SessionKey } from "../../ports/session-index.ts";
import { resumeCursor } from "../ids.ts";
import type { SessionLog } from "../log/session-log.ts";
import type { CheckpointExtras } from "./engine.ts";

type Checkpoint = SessionEventData<"session_checkpoint">;

/** Events to log in one write. */
export type Items = { type: SessionEventType; data: unknown }[];
export type CheckpointItem = { type: "session_checkpoint"; data: Checkpoint };

/** The checkpoint taken after `events`, the session's log so far. */
export function checkpointItem(
  job: SessionKey,
  events: readonly StreamEvent[],
  type: string,
  status: string,
  summary: string,
  opts: CheckpointExtras = {},
): CheckpointItem {
  const cursor =
    opts.cursor ?? (events.length ? resumeCursor({ sessionId: job.sessionId, seq: events.at(-1)!.seq }) : null);
  const { artifact, budgets } = opts;
  const data = {
    session_id: job.sessionId,
    sequence: events.filter((e) => e.type === "session_checkpoint").length + 1,
    checkpoint_type: type,
    status,
    summary_text: summary,
    resume_cursor: cursor,
    ...(artifact ? { artifact } : {}),
    ...(budgets ? { budgets } : {}),
  };
  return { type: "session_checkpoint", data };
}

/**
 * Checkpoints logged in the same write as `before`, the events that open a new session's stream: numbered and with
 * cursors as if each had been appended on its own after them.
 */
export function checkpointsAfter(
  job: SessionKey,
  before: readonly { type: SessionEventType }[],
  checkpoints: readonly { type: string; status: string; summary: string; opts?: CheckpointExtras }[],
): CheckpointItem[] {
  let events = followedBy(job, [], before);
  return checkpoints.map(({ type, status, summary, opts }) => {
    const item = checkpointItem(job, events, type, status, summary, opts);
    events = followedBy(job, events, [item]);
    return item;
  });
}

/** `events` and then `items` as if each had been appended on its own after them. */
function followedBy(
  job: SessionKey,
  events: readonly StreamEvent[],
  items: readonly { type: string; data?: unknown }[],
): StreamEvent[] {
  const last = events.at(-1)?.seq ?? 0;
  const ahead = items.map((it, i) => ({
    type: it.type,
    at: 0,
    data: it.data ?? null,
    stream: job.sessionId,
    seq: last + i + 1,
  }));
  return [...events, ...ahead];
}

export class Checkpoints {
  constructor(private readonly log: SessionLog) {}

  /** Logs a checkpoint at the log's end and, in the same write, the events that go with it (the state it leaves). */
  async write(
    job: SessionKey,
    type: string,
    status: string,
    summary: string,
    opts: CheckpointExtras = {},
    ...also: Items
  ): Promise<void> {
    const events = await this.log.all(job.workspaceId, job.sessionId);
    await this.log.appendAll(job.workspaceId, job.sessionId, [
      checkpointItem(job, events, type, status, summary, opts),
      ...also,
    ]);
  }

  /**
   * As `write`, on the events the caller read, and only while no state, approval or checkpoint has followed the last of
   * them (StreamMoved otherwise; SessionLog.appendAll); `before` goes in the same write ahead of the checkpoint.
   */
  async writeAfter(
    job: SessionKey,
    events: readonly StreamEvent[],
    before: Items,
    type: string,
    status: string,
    summary: string,
    ...also: Items
  ): Promise<void> {
    const item = checkpointItem(job, followedBy(job, events, before), type, status, summary);
    const last = events.at(-1)?.seq ?? 0;
    await this.log.appendAll(job.workspaceId, job.sessionId, [...before, item, ...also], last);
  }
}
