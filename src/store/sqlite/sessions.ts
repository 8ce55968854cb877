// Session rows in SQLite: one per session, newest first by insertion order, with the supervisor's heartbeat beside it.
import type {
  SessionIndex,
  SessionKey,
  SessionKind,
  SessionQuery,
  SessionRow,
  StoredSessionRow,
} from "../../ports/session-index.ts";
import { toSession, type SessionTableRow as Row } from "../rows.ts";
import type { Db } from "./open.ts";

export class SessionRepo implements SessionIndex {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      upsert: db.prepare(
        `INSERT INTO sessions (workspace_id, session_id, kind, status, state, state_seq, created_at, updated_at, heartbeat_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, session_id) DO UPDATE SET status = excluded.status, state = excluded.state,
           state_seq = excluded.state_seq, updated_at = excluded.updated_at, heartbeat_at = COALESCE(excluded.heartbeat_at, heartbeat_at)
         WHERE excluded.state_seq > state_seq`,
      ),
      get: db.prepare("SELECT * FROM sessions WHERE workspace_id = ? AND session_id = ?"),
      list: db.prepare(
        `SELECT * FROM sessions WHERE workspace_id = @ws AND seq < @before AND (@status IS NULL OR status = @status) AND (@kind IS NULL OR kind = @kind)
         ORDER BY seq DESC LIMIT @limit`,
      ),
      beat: db.prepare("UPDATE sessions SET heartbeat_at = ? WHERE workspace_id = ? AND session_id = ? AND owner = ?"),
      claim: db.prepare(
        `UPDATE sessions SET owner = @owner, heartbeat_at = @now WHERE workspace_id = @ws AND session_id = @sid
           AND (owner IS NULL OR owner = @owner OR heartbeat_at IS NULL OR heartbeat_at < @stale OR owner = @dead)`,
      ),
      release: db.prepare("UPDATE sessions SET owner = NULL WHERE workspace_id = ? AND session_id = ? AND owner = ?"),
      inStatus: db.prepare(
        "SELECT * FROM sessions WHERE kind = ? AND status IN (SELECT value FROM json_each(?)) ORDER BY seq",
      ),
    };
  }

  async upsertSession(r: SessionRow): Promise<void> {
    this.s.upsert.run(
      r.workspaceId,
      r.sessionId,
      r.kind,
      r.status,
      JSON.stringify(r.state),
      r.stateSeq,
      r.createdAt,
      r.updatedAt,
      r.heartbeatAt,
    );
  }

  async getSession(workspaceId: string, sessionId: string): Promise<StoredSessionRow | undefined> {
    const r = this.s.get.get(workspaceId, sessionId) as Row | undefined;
    return r && toSession(r);
  }

  async listSessions(workspaceId: string, q: SessionQuery): Promise<StoredSessionRow[]> {
    const rows = this.s.list.all({
      ws: workspaceId,
      before: q.beforeSeq ?? Number.MAX_SAFE_INTEGER,
      status: q.status ?? null,
      kind: q.kind ?? null,
      limit: q.limit,
    }) as Row[];
    return rows.map(toSession);
  }

  async claimSession(
    key: SessionKey,
    owner: string,
    now: number,
    staleBefore: number,
    takeOverFrom?: string,
  ): Promise<boolean> {
    return (
      this.s.claim.run({
        owner,
        now,
        ws: key.workspaceId,
        sid: key.sessionId,
        stale: staleBefore,
        dead: takeOverFrom ?? null,
      }).changes === 1
    );
  }

  async heartbeatSessions(owner: string, keys: readonly SessionKey[], at: number): Promise<SessionKey[]> {
    return this.db.transaction(() =>
      keys.filter((k) => this.s.beat.run(at, k.workspaceId, k.sessionId, owner).changes === 0),
    )();
  }

  async releaseSessions(owner: string, keys: readonly SessionKey[]): Promise<void> {
    this.db.transaction(() => keys.forEach((k) => this.s.release.run(k.workspaceId, k.sessionId, owner)))();
  }

  async sessionsInStatus(kind: SessionKind, statuses: readonly string[]): Promise<StoredSessionRow[]> {
    return (this.s.inStatus.all(kind, JSON.stringify(statuses)) as Row[]).map(toSession);
  }
}
