// The embedded store's tables, defined once, in two files; migrations run in order by each file's PRAGMA user_version.

/** The memory file (smriti.db): workspaces, documents, chunks, vectors, the audit log, records, cognitive state. */
export const migrations: readonly string[] = [
  `
  CREATE TABLE workspaces (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL);
  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    token_hash TEXT NOT NULL UNIQUE,
    actors TEXT NOT NULL,
    label TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE documents (
    workspace_id TEXT NOT NULL,
    source_path TEXT NOT NULL,
    document_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    authored_at INTEGER NOT NULL,
    ingested_at INTEGER NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (workspace_id, source_path)
  ) WITHOUT ROWID;
  CREATE TABLE chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    source_path TEXT NOT NULL,
    ord INTEGER NOT NULL,
    chunk_hash TEXT NOT NULL,
    anchor TEXT NOT NULL,
    start_offset INTEGER NOT NULL,
    end_offset INTEGER NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL,
    authored_at INTEGER NOT NULL
  );
  CREATE INDEX chunks_by_source ON chunks (workspace_id, source_path);
  CREATE INDEX chunks_by_hash ON chunks (chunk_hash, workspace_id);
  CREATE TABLE embeddings (
    embedder_id TEXT NOT NULL,
    chunk_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (embedder_id, chunk_hash)
  ) WITHOUT ROWID;
  -- Append-only log the in-memory indexes replay, so writes from other processes become visible.
  CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, workspace_id TEXT NOT NULL, chunk_id INTEGER NOT NULL, op INTEGER NOT NULL);
  CREATE INDEX changes_by_workspace ON changes (workspace_id, seq);
  CREATE TABLE forgotten (workspace_id TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (workspace_id, kind, key)) WITHOUT ROWID;
  `,
  `
  -- Append-only, hash-chained audit log: each event carries its predecessor's hash (per workspace).
  CREATE TABLE events (
    workspace_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    actor_id TEXT,
    token_id TEXT,
    at INTEGER NOT NULL,
    trajectory_id TEXT,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (workspace_id, seq)
  ) WITHOUT ROWID;
  -- The chain's head, kept beside it: cutting events off the end leaves the head pointing past the last event.
  CREATE TABLE event_heads (workspace_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;
  CREATE INDEX events_by_trajectory ON events (workspace_id, trajectory_id, seq) WHERE trajectory_id IS NOT NULL;
  `,
  // Readers replay the log by seq alone (the primary key); this index only cost an insert per chunk.
  `DROP INDEX IF EXISTS changes_by_workspace;`,
  `
  -- Durable knowledge: stored decisions, assimilation stages and memory proposals; seq orders keyset pages.
  CREATE TABLE records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    grp TEXT,
    parent_id TEXT,
    status TEXT,
    created_at INTEGER NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (workspace_id, id)
  );
  CREATE INDEX records_by_kind ON records (workspace_id, kind, seq);
  CREATE INDEX records_by_parent ON records (workspace_id, parent_id) WHERE parent_id IS NOT NULL;
  `,
  `
  -- Cognitive layer counters, summed per workspace and hour (issue 5: a since=7d read survives restarts).
  CREATE TABLE cognitive_counters (
    workspace_id TEXT NOT NULL,
    hour INTEGER NOT NULL,
    layer TEXT NOT NULL,
    counter TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, hour, layer, counter)
  ) WITHOUT ROWID;
  -- Tuner decisions, ablation figures and tuned parameters, as JSON.
  CREATE TABLE cognitive_records (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, workspace_id TEXT, at INTEGER NOT NULL, payload TEXT NOT NULL);
  CREATE INDEX cognitive_records_by_kind ON cognitive_records (kind, seq);
  `,
  // Start-up rebuilds the karma ledger from memory.feedback events, and the audit route filters by type: both read by type.
  `CREATE INDEX events_by_type ON events (workspace_id, type, seq);`,
  // chitta's impressions (times each chunk was served), so what it learned survives a restart.
  `CREATE TABLE chunk_impressions (workspace_id TEXT NOT NULL, chunk_hash TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (workspace_id, chunk_hash)) WITHOUT ROWID;`,
  // process() traces, so a trace reads back after a restart and from another process on the same data (the CLI on --data).
  `CREATE TABLE cognitive_traces (seq INTEGER PRIMARY KEY AUTOINCREMENT, trace_id TEXT NOT NULL UNIQUE, workspace_id TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL);
   CREATE INDEX cognitive_traces_by_workspace ON cognitive_traces (workspace_id, seq);`,
  // The event log's streams, the session rows and their leases: created here by three migrations, now in the session
  // log's file (logMigrations below); session-log-file.ts moves what a memory file made before then held.
  "-- stream_events: in the session log's file",
  "-- sessions: in the session log's file",
  "-- sessions.owner: in the session log's file",
  // Token scopes (README "Tokens and scopes"): tokens made before keep what they could do, except execute.
  `ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT '["read","write","admin"]';`,
  // A record replaced by a later one (issue 45): at most once; recall reads it by either note's path.
  `CREATE TABLE supersessions (workspace_id TEXT NOT NULL, old_id TEXT NOT NULL, new_id TEXT NOT NULL, old_path TEXT NOT NULL,
     new_path TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (workspace_id, old_id)) WITHOUT ROWID;
   CREATE INDEX supersessions_by_old_path ON supersessions (workspace_id, old_path);
   CREATE INDEX supersessions_by_new_path ON supersessions (workspace_id, new_path);`,
  // A chunk nothing dated (issue 45): its event time is the ingest time, so its relative words are not resolved against it.
  `ALTER TABLE chunks ADD COLUMN undated INTEGER NOT NULL DEFAULT 0;`,
  // The analysis a document's chunk terms were made by: 0, before versions, is re-analysed on an unchanged re-ingest.
  `ALTER TABLE documents ADD COLUMN analysis INTEGER NOT NULL DEFAULT 0;`,
];

/**
 * The session log's file (smriti-sessions.db): the event log's streams and the session rows, apart from the memory
 * file because a turn commits there many times a second and every commit to a file makes each reader of it re-read
 * its pages (SQLite in WAL mode drops a connection's page cache when another connection has committed).
 */
export const logMigrations: readonly string[] = [
  // The event log's streams (streamed answers and sessions): numbered per stream, read after a seq by a resuming client.
  // Sessions as rows (each mirrors its latest session_state): listing by status, and the supervisor's recovery scans;
  // owner is the lease, which supervisor runs a background session, so replicas on one store never run it twice.
  `CREATE TABLE stream_events (workspace_id TEXT NOT NULL, stream TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (workspace_id, stream, seq)) WITHOUT ROWID;
   CREATE TABLE sessions (seq INTEGER PRIMARY KEY AUTOINCREMENT, workspace_id TEXT NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
     state TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, heartbeat_at INTEGER, owner TEXT, UNIQUE (workspace_id, session_id));
   CREATE INDEX sessions_by_status ON sessions (kind, status);`,
  // The seq of the state a row mirrors: two processes' mirrors landing out of order must not move a row back.
  `ALTER TABLE sessions ADD COLUMN state_seq INTEGER NOT NULL DEFAULT 0;`,
];
