// The audit log in PostgreSQL: appends extend the workspace's hash chain under its advisory lock, so concurrent writers
// on any replica make one chain.
import type { AuditLog, EventDraft, EventQuery, StoredEvent } from "../../ports/audit-log.ts";
import { chainEvents } from "../audit-chain.ts";
import { toEvent, type EventRow } from "../rows.ts";
import { lock, transaction, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import type pg from "pg";

export class AuditRepo implements AuditLog {
  constructor(private readonly db: Db) {}

  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return transaction(this.db, (c) => this.append(c, workspaceId, drafts));
  }

  /** Inside the caller's transaction, so a write and its event land together. */
  async append(c: pg.PoolClient, workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    if (drafts.length === 0) return [];
    await lock(c, LOCK.audit, workspaceId);
    const { rows } = await c.query<{ seq: number; hash: string }>(
      "SELECT seq, hash FROM events WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1",
      [workspaceId],
    );
    const events = chainEvents(workspaceId, drafts, rows[0]);
    const column = <K extends keyof (typeof events)[number]>(k: K) => events.map((e) => e[k]);
    await c.query(
      `INSERT INTO events (workspace_id, seq, id, type, actor_id, token_id, at, trajectory_id, payload, prev_hash, hash)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[])`,
      [
        workspaceId,
        column("seq"),
        column("id"),
        column("type"),
        column("actorId"),
        column("tokenId"),
        column("at"),
        column("trajectoryId"),
        column("payload"),
        column("prevHash"),
        column("hash"),
      ],
    );
    await c.query(
      "INSERT INTO event_heads (workspace_id, seq, hash) VALUES ($1, $2, $3) ON CONFLICT (workspace_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
      [workspaceId, events.at(-1)!.seq, events.at(-1)!.hash], // drafts is not empty: returned early above
    );
    return events;
  }

  async eventHead(workspaceId: string): Promise<{ seq: number; hash: string } | undefined> {
    const { rows } = await this.db.query<{ seq: number; hash: string }>(
      "SELECT seq, hash FROM event_heads WHERE workspace_id = $1",
      [workspaceId],
    );
    return rows[0];
  }

  async listEvents(workspaceId: string, q: EventQuery): Promise<StoredEvent[]> {
    const desc = q.order === "desc";
    const args: unknown[] = [workspaceId];
    const where = ["workspace_id = $1"];
    const add = (clause: (p: string) => string, value: unknown) => {
      args.push(value);
      where.push(clause(`$${args.length}`));
    };
    if (q.afterSeq !== undefined) add((p) => (desc ? `seq < ${p}` : `seq > ${p}`), q.afterSeq);
    if (q.types?.length) add((p) => `type = ANY(${p}::text[])`, q.types);
    if (q.actorId !== undefined) add((p) => `actor_id = ${p}`, q.actorId);
    if (q.since !== undefined) add((p) => `at >= ${p}`, q.since);
    if (q.until !== undefined) add((p) => `at < ${p}`, q.until);
    if (q.trajectoryId !== undefined) add((p) => `trajectory_id = ${p}`, q.trajectoryId);
    args.push(q.limit);
    const { rows } = await this.db.query<EventRow>(
      `SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT $${args.length}`,
      args,
    );
    return rows.map(toEvent);
  }
}
