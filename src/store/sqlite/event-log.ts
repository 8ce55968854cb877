// The event log's streams in SQLite: one row per event, numbered per stream; appends wake this handle's followers.
import {
  StreamMoved,
  type AppendCondition,
  type AppendNotices,
  type EventLog,
  type StreamEvent,
  type StreamEventDraft,
  type Wake,
} from "../../ports/event-log.ts";
import { toStreamEvent, type StreamEventRow } from "../rows.ts";
import { StreamFollowers } from "../stream-followers.ts";
import type { Db } from "./open.ts";

export class EventLogRepo implements EventLog {
  private readonly s;
  readonly followers = new StreamFollowers();

  constructor(
    private readonly db: Db,
    private readonly notices: AppendNotices | null = null,
  ) {
    notices?.listen((workspaceId, stream) => this.followers.wake(workspaceId, stream, null));
    this.s = {
      last: db.prepare("SELECT COALESCE(MAX(seq), 0) FROM stream_events WHERE workspace_id = ? AND stream = ?").pluck(),
      lastOf: db
        .prepare(
          `SELECT COALESCE(MAX(seq), 0) FROM stream_events WHERE workspace_id = ? AND stream = ? AND seq > ?
             AND type IN (SELECT value FROM json_each(?))`,
        )
        .pluck(),
      insert: db.prepare(
        "INSERT INTO stream_events (workspace_id, stream, seq, type, at, data) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      read: db.prepare(
        "SELECT stream, seq, type, at, data FROM stream_events WHERE workspace_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?",
      ),
    };
  }

  async appendStream(
    workspaceId: string,
    stream: string,
    drafts: readonly StreamEventDraft[],
    condition?: AppendCondition,
  ): Promise<StreamEvent[]> {
    const events = this.db
      .transaction(() => {
        let seq = this.s.last.get(workspaceId, stream) as number;
        const types = condition?.types;
        const counted = types
          ? (this.s.lastOf.get(workspaceId, stream, condition!.afterSeq, JSON.stringify(types)) as number)
          : seq;
        StreamMoved.check(stream, condition?.afterSeq, seq, counted);
        return drafts.map((d) => {
          this.s.insert.run(workspaceId, stream, ++seq, d.type, d.at, JSON.stringify(d.data ?? null));
          return { stream, seq, type: d.type, at: d.at, data: d.data };
        });
      })
      .immediate();
    this.followers.wake(workspaceId, stream, events);
    this.notices?.publish(workspaceId, stream);
    return events;
  }

  /** Wakes `wake` after each append to the stream, this handle's and (told by the notices) another process's. */
  subscribeStream(workspaceId: string, stream: string, wake: Wake): () => void {
    const unsubscribe = this.followers.subscribe(workspaceId, stream, wake);
    const unfollow = this.notices?.follow?.(workspaceId, stream);
    return () => {
      unsubscribe();
      unfollow?.();
    };
  }

  async readStream(workspaceId: string, stream: string, afterSeq: number, limit: number): Promise<StreamEvent[]> {
    return (this.s.read.all(workspaceId, stream, afterSeq, limit) as StreamEventRow[]).map(toStreamEvent);
  }
}
