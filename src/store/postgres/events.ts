// The audit log in PostgreSQL: appends extend the workspace's hash chain under its advisory lock, so concurrent writers
// on any replica make one chain.
import type { AuditLog, EventDraft, EventQuery, StoredEvent } from "../../ports/audit-log.ts";
import { chainEvents } from "../audit-chain.ts";
import { toEvent, type EventRow } from "../rows.ts";
import { transaction, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import type pg from "pg";

export class AuditRepo implements AuditLog {
  constructor(private readonly db: Db) {}

  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return transaction(this.db, (c) => this.append(c, workspaceId, drafts));
  }

  /** Inside the caller's transaction, so a write and its event land together. */
  async append(c: pg.PoolClient, workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return this.appendMany(c, [{ workspaceId, drafts }]);
  }

  /**
   * Several workspaces' drafts inside the caller's transaction (group commit's batch), one statement each for the
   * locks, the heads, and the events with the new heads: each workspace's chain is extended once, in the drafts' order.
   */
  async appendMany(
    c: pg.PoolClient,
    appends: readonly { workspaceId: string; drafts: readonly EventDraft[] }[],
  ): Promise<StoredEvent[]> {
    const byWorkspace = new Map<string, EventDraft[]>();
    for (const { workspaceId, drafts } of appends)
      if (drafts.length > 0) byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), ...drafts]);
    if (byWorkspace.size === 0) return [];
    const workspaces = [...byWorkspace.keys()].sort(); // every writer locks workspaces in one order
    // Locked in a statement of their own: a statement reads the snapshot of its start, so the heads come after.
    await c.query(
      "SELECT pg_advisory_xact_lock($1, hashtext(ws)) FROM unnest($2::text[]) WITH ORDINALITY AS w(ws, n) ORDER BY n",
      [LOCK.audit, workspaces],
    );
    const { rows } = await c.query<{ ws: string; seq: number; hash: string }>(
      `SELECT w.ws, e.seq, e.hash FROM unnest($1::text[]) AS w(ws)
       CROSS JOIN LATERAL (SELECT seq, hash FROM events WHERE workspace_id = w.ws ORDER BY seq DESC LIMIT 1) AS e`,
      [workspaces],
    );
    const heads = new Map(rows.map((r) => [r.ws, { seq: Number(r.seq), hash: r.hash }]));
    const events = workspaces.flatMap((ws) => chainEvents(ws, byWorkspace.get(ws)!, heads.get(ws)));
    const column = <K extends keyof (typeof events)[number]>(k: K) => events.map((e) => e[k]);
    const last = workspaces.map((ws) => events.findLast((e) => e.workspaceId === ws)!); // each has a draft
    await c.query(
      `WITH added AS (
         INSERT INTO events (workspace_id, seq, id, type, actor_id, token_id, at, trajectory_id, payload, prev_hash, hash)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[]))
       INSERT INTO event_heads (workspace_id, seq, hash) SELECT * FROM unnest($12::text[], $13::bigint[], $14::text[])
       ON CONFLICT (workspace_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`,
      [
        column("workspaceId"),
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
        last.map((e) => e.workspaceId),
        last.map((e) => e.seq),
        last.map((e) => e.hash),
      ],
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
