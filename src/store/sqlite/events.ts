// The audit log in SQLite: appends extend the workspace's hash chain under the write lock (on the writer thread when there is one).
import type { Db } from "./open.ts";
import type { AuditLog, EventDraft, EventQuery, StoredEvent } from "../../ports/audit-log.ts";
import { chainEvents } from "../audit-chain.ts";
import { toEvent, type EventRow } from "../rows.ts";
import type { SqliteWriter } from "./writer.ts";

export class AuditRepo implements AuditLog {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly writer: SqliteWriter | null = null,
  ) {
    this.s = {
      last: db.prepare("SELECT seq, hash FROM events WHERE workspace_id = ? ORDER BY seq DESC LIMIT 1"),
      head: db.prepare("SELECT seq, hash FROM event_heads WHERE workspace_id = ?"),
      setHead: db.prepare(
        "INSERT INTO event_heads (workspace_id, seq, hash) VALUES (?, ?, ?) ON CONFLICT (workspace_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
      ),
      insert: db.prepare(
        `INSERT INTO events (workspace_id, seq, id, type, actor_id, token_id, at, trajectory_id, payload, prev_hash, hash)
         VALUES (@workspaceId, @seq, @id, @type, @actorId, @tokenId, @at, @trajectoryId, @payload, @prevHash, @hash)`,
      ),
    };
  }

  async appendEvents(workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return this.writer?.usable ? this.writer.appendEvents(workspaceId, drafts) : this.append(workspaceId, drafts);
  }

  /** Runs inside the caller's transaction when there is one, so a write and its event land together. */
  append(workspaceId: string, drafts: readonly EventDraft[]): StoredEvent[] {
    const run = () => {
      const last = this.s.last.get(workspaceId) as { seq: number; hash: string } | undefined;
      const events = chainEvents(workspaceId, drafts, last);
      for (const event of events) this.s.insert.run(event);
      const end = events.at(-1);
      if (end) this.s.setHead.run(workspaceId, end.seq, end.hash);
      return events;
    };
    return this.db.inTransaction ? run() : this.db.transaction(run).immediate();
  }

  async eventHead(workspaceId: string): Promise<{ seq: number; hash: string } | undefined> {
    return this.s.head.get(workspaceId) as { seq: number; hash: string } | undefined;
  }

  async listEvents(workspaceId: string, q: EventQuery): Promise<StoredEvent[]> {
    const desc = q.order === "desc";
    const where = ["workspace_id = ?"];
    const args: unknown[] = [workspaceId];
    if (q.afterSeq !== undefined) {
      where.push(desc ? "seq < ?" : "seq > ?");
      args.push(q.afterSeq);
    }
    if (q.types?.length) {
      where.push(`type IN (${q.types.map(() => "?").join(",")})`);
      args.push(...q.types);
    }
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      args.push(value);
    };
    if (q.actorId !== undefined) add("actor_id = ?", q.actorId);
    if (q.since !== undefined) add("at >= ?", q.since);
    if (q.until !== undefined) add("at < ?", q.until);
    if (q.trajectoryId !== undefined) add("trajectory_id = ?", q.trajectoryId);
    const rows = this.db
      .prepare(`SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT ?`)
      .all(...args, q.limit) as EventRow[];
    return rows.map(toEvent);
  }
}
