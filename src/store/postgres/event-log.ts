// The event log's streams in PostgreSQL: one row per event, numbered per stream under the stream's advisory lock (writers
// on any replica); an append wakes this replica's followers at once and, by NOTIFY at its commit, every other's.
import {
  StreamMoved,
  type AppendCondition,
  type EventLog,
  type StreamEvent,
  type StreamEventDraft,
  type Wake,
} from "../../ports/event-log.ts";
import { toStreamEvent, type StreamEventRow } from "../rows.ts";
import type { StreamFollowers } from "../stream-followers.ts";
import { lock, transaction, type Conn, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import { STREAM_CHANNEL, type StreamListener, type StreamNotice } from "./stream-listener.ts";

export class EventLogRepo implements EventLog {
  constructor(
    private readonly db: Db,
    private readonly followers: StreamFollowers,
    /** Wakes the followers on other replicas' appends, and names this handle in the notifications it sends. */
    private readonly listener: StreamListener,
  ) {}

  async appendStream(
    workspaceId: string,
    stream: string,
    drafts: readonly StreamEventDraft[],
    condition?: AppendCondition,
  ): Promise<StreamEvent[]> {
    const events = await transaction(this.db, async (c) => {
      await lock(c, LOCK.stream, `${workspaceId}/${stream}`);
      const { rows } = await c.query<{ seq: number }>(
        "SELECT COALESCE(MAX(seq), 0)::bigint AS seq FROM stream_events WHERE workspace_id = $1 AND stream = $2",
        [workspaceId, stream],
      );
      const last = Number(rows[0]!.seq);
      StreamMoved.check(stream, condition?.afterSeq, last, await lastOf(c, workspaceId, stream, condition, last));
      const first = last + 1;
      const out = drafts.map((d, i) => ({ stream, seq: first + i, type: d.type, at: d.at, data: d.data }));
      const notice: StreamNotice = [workspaceId, stream, this.listener.origin];
      await c.query("SELECT pg_notify($1, $2)", [STREAM_CHANNEL, JSON.stringify(notice)]); // sent at commit
      await c.query(
        "INSERT INTO stream_events (workspace_id, stream, seq, type, at, data) SELECT $1, $2, * FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::text[])",
        [
          workspaceId,
          stream,
          out.map((e) => e.seq),
          out.map((e) => e.type),
          out.map((e) => e.at),
          out.map((e) => JSON.stringify(e.data ?? null)),
        ],
      );
      return out;
    });
    this.followers.wake(workspaceId, stream, events);
    return events;
  }

  subscribeStream(workspaceId: string, stream: string, wake: Wake): () => void {
    this.listener.ensure();
    return this.followers.subscribe(workspaceId, stream, wake);
  }

  async readStream(workspaceId: string, stream: string, afterSeq: number, limit: number): Promise<StreamEvent[]> {
    const { rows } = await this.db.query<StreamEventRow>({
      name: "stream_read",
      text: "SELECT stream, seq, type, at, data FROM stream_events WHERE workspace_id = $1 AND stream = $2 AND seq > $3 ORDER BY seq LIMIT $4",
      values: [workspaceId, stream, afterSeq, limit],
    });
    return rows.map(toStreamEvent);
  }
}

/** The last seq of the condition's types after its seq (the stream's `last` when every type counts). */
async function lastOf(
  c: Conn,
  workspaceId: string,
  stream: string,
  condition: AppendCondition | undefined,
  last: number,
): Promise<number> {
  if (!condition?.types) return last;
  const { rows } = await c.query<{ seq: string }>(
    `SELECT COALESCE(MAX(seq), 0)::bigint AS seq FROM stream_events
       WHERE workspace_id = $1 AND stream = $2 AND seq > $3 AND type = ANY($4::text[])`,
    [workspaceId, stream, condition.afterSeq, condition.types],
  );
  return Number(rows[0]!.seq);
}
