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
  /** That state's seq in the session's log: a row only moves forward (a late mirror of an older state is dropped). */
  stateSeq: number;
  createdAt: number;
  updatedAt: number;
  /** Last time a supervisor said the run is alive (background runs); null when none runs. */
  heartbeatAt: number | null;
}

/** A stored row with its insertion order, which keyset paging uses. */
export interface StoredSessionRow extends SessionRow {
  seq: number;
  /** The process (host:pid:nonce) holding the session's lease; null when none does. */
  owner: string | null;
}

export interface SessionKey {
  workspaceId: string;
  sessionId: string;
}

export interface SessionQuery {
  status?: string | undefined;
  kind?: SessionKind | undefined;
  /** Keyset cursor: rows inserted before this seq (newest first). */
  beforeSeq?: number | undefined;
  limit: number;
}

export interface SessionIndex {
  /** Inserts the row, or updates its status, state and time when its stateSeq is newer (creation time and order kept). */
  upsertSession(row: SessionRow): Promise<void>;
  getSession(workspaceId: string, sessionId: string): Promise<StoredSessionRow | undefined>;
  listSessions(workspaceId: string, q: SessionQuery): Promise<StoredSessionRow[]>;
  /**
   * The lease on a run, so exactly one supervisor of all the processes on the store runs it: taken (and the heartbeat
   * set) when nobody holds it, its holder's heartbeat is older than `staleBefore`, `owner` holds it already, or its
   * holder is still `takeOverFrom` (a holder known dead; a compare-and-set, so of two takers only the first wins).
   */
  claimSession(
    key: SessionKey,
    owner: string,
    now: number,
    staleBefore: number,
    takeOverFrom?: string,
  ): Promise<boolean>;
  /** Marks the owner's runs alive now; returns the keys among them it no longer holds (another took them over). */
  heartbeatSessions(owner: string, keys: readonly SessionKey[], at: number): Promise<SessionKey[]>;
  /** Lets go of the owner's leases (a run handed back or ended), so another supervisor need not wait for staleness. */
  releaseSessions(owner: string, keys: readonly SessionKey[]): Promise<void>;
  /** Background rows of every workspace in one of `statuses` (a supervisor's start-up and stale-heartbeat scans). */
  sessionsInStatus(kind: SessionKind, statuses: readonly string[]): Promise<StoredSessionRow[]>;
}
