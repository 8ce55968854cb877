// Session rows in PostgreSQL: one per session, newest first by insertion order, with the supervisor's heartbeat beside it.
import type {
  SessionIndex,
  SessionKey,
  SessionKind,
  SessionQuery,
  SessionRow,
  StoredSessionRow,
} from "../../ports/session-index.ts";
import { toSession, type SessionTableRow } from "../rows.ts";
import type { Db } from "./open.ts";

export class SessionRepo implements SessionIndex {
  constructor(private readonly db: Db) {}

  async upsertSession(r: SessionRow): Promise<void> {
    await this.db.query(
      `INSERT INTO sessions (workspace_id, session_id, kind, status, state, state_seq, created_at, updated_at, heartbeat_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (workspace_id, session_id) DO UPDATE SET status = excluded.status, state = excluded.state,
         state_seq = excluded.state_seq, updated_at = excluded.updated_at,
         heartbeat_at = COALESCE(excluded.heartbeat_at, sessions.heartbeat_at)
       WHERE excluded.state_seq > sessions.state_seq`,
      [
        r.workspaceId,
        r.sessionId,
        r.kind,
        r.status,
        JSON.stringify(r.state),
        r.stateSeq,
        r.createdAt,
        r.updatedAt,
        r.heartbeatAt,
      ],
    );
  }

  async getSession(workspaceId: string, sessionId: string): Promise<StoredSessionRow | undefined> {
    const { rows } = await this.db.query<SessionTableRow>({
      name: "session_get",
      text: "SELECT * FROM sessions WHERE workspace_id = $1 AND session_id = $2",
      values: [workspaceId, sessionId],
    });
    return rows[0] && toSession(rows[0]);
  }

  async listSessions(workspaceId: string, q: SessionQuery): Promise<StoredSessionRow[]> {
    const { rows } = await this.db.query<SessionTableRow>(
      `SELECT * FROM sessions WHERE workspace_id = $1 AND seq < $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR kind = $4)
       ORDER BY seq DESC LIMIT $5`,
      [workspaceId, q.beforeSeq ?? Number.MAX_SAFE_INTEGER, q.status ?? null, q.kind ?? null, q.limit],
    );
    return rows.map(toSession);
  }

  async claimSession(
    key: SessionKey,
    owner: string,
    now: number,
    staleBefore: number,
    takeOverFrom?: string,
  ): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE sessions SET owner = $1, heartbeat_at = $2 WHERE workspace_id = $3 AND session_id = $4
         AND (owner IS NULL OR owner = $1 OR heartbeat_at IS NULL OR heartbeat_at < $5 OR owner = $6)`,
      [owner, now, key.workspaceId, key.sessionId, staleBefore, takeOverFrom ?? null],
    );
    return res.rowCount === 1;
  }

  async heartbeatSessions(owner: string, keys: readonly SessionKey[], at: number): Promise<SessionKey[]> {
    if (keys.length === 0) return [];
    const { rows } = await this.db.query<{ w: string; id: string }>(
      `UPDATE sessions s SET heartbeat_at = $1 FROM unnest($2::text[], $3::text[]) AS k(w, id)
       WHERE s.workspace_id = k.w AND s.session_id = k.id AND s.owner = $4 RETURNING k.w, k.id`,
      [at, keys.map((k) => k.workspaceId), keys.map((k) => k.sessionId), owner],
    );
    const held = new Set(rows.map((r) => `${r.w}\u0000${r.id}`));
    return keys.filter((k) => !held.has(`${k.workspaceId}\u0000${k.sessionId}`));
  }

  async releaseSessions(owner: string, keys: readonly SessionKey[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.query(
      "UPDATE sessions s SET owner = NULL FROM unnest($1::text[], $2::text[]) AS k(w, id) WHERE s.workspace_id = k.w AND s.session_id = k.id AND s.owner = $3",
      [keys.map((k) => k.workspaceId), keys.map((k) => k.sessionId), owner],
    );
  }

  async sessionsInStatus(kind: SessionKind, statuses: readonly string[]): Promise<StoredSessionRow[]> {
    const { rows } = await this.db.query<SessionTableRow>(
      "SELECT * FROM sessions WHERE kind = $1 AND status = ANY($2::text[]) ORDER BY seq",
      [kind, statuses],
    );
    return rows.map(toSession);
  }
}
