// The sessions of each workspace as rows: what lists them, and what the supervisor claims and recovers. Each row mirrors
// the session's latest session_state; the event log stays authoritative (a row is rewritten from it when they differ).

export type SessionKind = "chat" | "background";

export interface SessionRow {
  workspaceId: string;
  sessionId: string;
  kind: SessionKind;
  status: string;
  /** The latest session_state as logged. */
  state: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** Last time a supervisor said the run is alive (background runs); null when none runs. */
  heartbeatAt: number | null;
}

/** A stored row with its insertion order, which keyset paging uses. */
export interface StoredSessionRow extends SessionRow {
  seq: number;
}

export interface SessionQuery {
  status?: string | undefined;
  kind?: SessionKind | undefined;
  /** Keyset cursor: rows inserted before this seq (newest first). */
  beforeSeq?: number | undefined;
  limit: number;
}

export interface SessionIndex {
  /** Inserts the row, or updates its status, state and time (creation time and order kept). */
  upsertSession(row: SessionRow): Promise<void>;
  getSession(workspaceId: string, sessionId: string): Promise<StoredSessionRow | undefined>;
  listSessions(workspaceId: string, q: SessionQuery): Promise<StoredSessionRow[]>;
  /** Marks runs alive now. */
  heartbeatSessions(keys: readonly { workspaceId: string; sessionId: string }[], at: number): Promise<void>;
  /** Background rows of every workspace in one of `statuses` (a supervisor's start-up and stale-heartbeat scans). */
  sessionsInStatus(kind: SessionKind, statuses: readonly string[]): Promise<StoredSessionRow[]>;
}
