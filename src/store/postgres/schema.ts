// The PostgreSQL store's tables: the same shapes as the SQLite schema, as one migration list applied in order and
// recorded in smriti_schema (one row: the number applied). Times are epoch milliseconds in BIGINT, JSON kept as the exact
// text that was written (the audit chain hashes that text), vectors as little-endian float32 bytes.
export const migrations: readonly string[] = [
  `
  CREATE TABLE workspaces (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL);
  CREATE TABLE tokens (
    seq BIGSERIAL,
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    token_hash TEXT NOT NULL UNIQUE,
    actors TEXT NOT NULL,
    label TEXT,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  CREATE TABLE documents (
    workspace_id TEXT NOT NULL,
    source_path TEXT COLLATE "C" NOT NULL,
    document_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    authored_at BIGINT NOT NULL,
    ingested_at BIGINT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (workspace_id, source_path)
  );
  CREATE TABLE chunks (
    id BIGSERIAL PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    source_path TEXT COLLATE "C" NOT NULL,
    ord INTEGER NOT NULL,
    chunk_hash TEXT NOT NULL,
    anchor TEXT NOT NULL,
    start_offset INTEGER NOT NULL,
    end_offset INTEGER NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL,
    authored_at BIGINT NOT NULL
  );
  -- Byte order (COLLATE "C") as on SQLite, whatever the database's locale: paging and prefix listing agree on both.
  CREATE INDEX chunks_by_source ON chunks (workspace_id, source_path, id);
  CREATE INDEX chunks_by_hash ON chunks (chunk_hash, workspace_id);
  CREATE TABLE embeddings (embedder_id TEXT NOT NULL, chunk_hash TEXT NOT NULL, vector BYTEA NOT NULL, PRIMARY KEY (embedder_id, chunk_hash));
  -- Append-only log the in-memory indexes of every replica replay; writers hold one lock, so seq order is commit order.
  CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, workspace_id TEXT NOT NULL, chunk_id BIGINT NOT NULL, op SMALLINT NOT NULL);
  CREATE TABLE forgotten (workspace_id TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (workspace_id, kind, key));
  -- Append-only, hash-chained audit log: each event carries its predecessor's hash (per workspace).
  CREATE TABLE events (
    workspace_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    actor_id TEXT,
    token_id TEXT,
    at BIGINT NOT NULL,
    trajectory_id TEXT,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (workspace_id, seq)
  );
  CREATE TABLE event_heads (workspace_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, hash TEXT NOT NULL);
  CREATE INDEX events_by_trajectory ON events (workspace_id, trajectory_id, seq) WHERE trajectory_id IS NOT NULL;
  CREATE INDEX events_by_type ON events (workspace_id, type, seq);
  CREATE TABLE records (
    seq BIGSERIAL PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    grp TEXT,
    parent_id TEXT,
    status TEXT,
    created_at BIGINT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (workspace_id, id)
  );
  CREATE INDEX records_by_kind ON records (workspace_id, kind, seq);
  CREATE INDEX records_by_parent ON records (workspace_id, parent_id) WHERE parent_id IS NOT NULL;
  CREATE TABLE cognitive_counters (
    workspace_id TEXT NOT NULL,
    hour BIGINT NOT NULL,
    layer TEXT NOT NULL,
    counter TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, hour, layer, counter)
  );
  CREATE TABLE cognitive_records (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, workspace_id TEXT, at BIGINT NOT NULL, payload TEXT NOT NULL);
  CREATE INDEX cognitive_records_by_kind ON cognitive_records (kind, seq);
  CREATE TABLE chunk_impressions (workspace_id TEXT NOT NULL, chunk_hash TEXT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (workspace_id, chunk_hash));
  CREATE TABLE cognitive_traces (seq BIGSERIAL PRIMARY KEY, trace_id TEXT NOT NULL UNIQUE, workspace_id TEXT NOT NULL, at BIGINT NOT NULL, payload TEXT NOT NULL);
  CREATE INDEX cognitive_traces_by_workspace ON cognitive_traces (workspace_id, seq);
  CREATE TABLE stream_events (workspace_id TEXT NOT NULL, stream TEXT NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, at BIGINT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (workspace_id, stream, seq));
  CREATE TABLE sessions (seq BIGSERIAL PRIMARY KEY, workspace_id TEXT NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
    state TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, heartbeat_at BIGINT, UNIQUE (workspace_id, session_id));
  CREATE INDEX sessions_by_status ON sessions (kind, status);
  `,
  // Leases: which supervisor runs a background session, so replicas never run it twice.
  `ALTER TABLE sessions ADD COLUMN owner TEXT;`,
  // Token scopes (README "Tokens and scopes"): tokens made before keep what they could do, except execute.
  `ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT '["read","write","admin"]';`,
  // A record replaced by a later one (issue 45): at most once; recall reads it by either note's path.
  `CREATE TABLE supersessions (workspace_id TEXT NOT NULL, old_id TEXT NOT NULL, new_id TEXT NOT NULL, old_path TEXT NOT NULL,
     new_path TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (workspace_id, old_id));
   CREATE INDEX supersessions_by_old_path ON supersessions (workspace_id, old_path);
   CREATE INDEX supersessions_by_new_path ON supersessions (workspace_id, new_path);`,
  // A chunk nothing dated (issue 45): its event time is the ingest time, so its relative words are not resolved against it.
  `ALTER TABLE chunks ADD COLUMN undated INTEGER NOT NULL DEFAULT 0;`,
  // The seq of the state a session row mirrors: two processes' mirrors landing out of order must not move a row back.
  `ALTER TABLE sessions ADD COLUMN state_seq BIGINT NOT NULL DEFAULT 0;`,
  // The analysis a document's chunk terms were made by: 0, before versions, is re-analysed on an unchanged re-ingest.
  `ALTER TABLE documents ADD COLUMN analysis INTEGER NOT NULL DEFAULT 0;`,
];

/** Advisory lock keys (first int of pg_advisory_xact_lock(int, int)); always taken in this order within a transaction. */
export const LOCK = { migrate: 0x5a01, changes: 0x5a02, audit: 0x5a03, stream: 0x5a04 } as const;
