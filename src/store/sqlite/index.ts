// The embedded default Store: SQLite (WAL), the memory in one file and the session log in another beside it (schema.ts
// says why). Calls are synchronous underneath and resolve at once.
import type { CognitiveRecord, CognitiveRecordQuery, CounterIncrement, CounterQuery, ImpressionIncrement } from "../../ports/cognitive.ts";
import type { EventDraft, EventQuery } from "../../ports/audit-log.ts";
import type { AppendNotices, StreamEventDraft, Wake } from "../../ports/event-log.ts";
import type { ChunkInput, DocumentRecord, DocumentWrite, NewVectors, RemovedChunk } from "../../ports/documents.ts";
import type { RecordQuery, RecordRow, RecordSideEffects, StoredRecord } from "../../ports/records.ts";
import type { SessionKey, SessionQuery, SessionRow } from "../../ports/session-index.ts";
import type { Store } from "../../ports/store.ts";
import type { TokenRecord } from "../../ports/workspaces.ts";
import { openDatabase, type Db } from "./open.ts";
import { logMigrations, migrations } from "./schema.ts";
import { moveSessionTables, sessionLogFileOf } from "./session-log-file.ts";
import { WorkspaceRepo } from "./workspaces.ts";
import { DocumentRepo } from "./documents.ts";
import { EventRepo } from "./events.ts";
import { EventLogRepo } from "./event-log.ts";
import { RecordRepo } from "./records.ts";
import { CognitiveRepo } from "./cognitive.ts";
import { SearchFeedRepo } from "./search-feed.ts";
import { SessionRepo } from "./sessions.ts";
import { startBackgroundCheckpoints, type Checkpointer } from "./checkpointer.ts";
import { fromBlob, toBlob } from "../vector-blob.ts";
import { SqliteWriter } from "./writer.ts";

export interface SqliteOptions {
  synchronous?: "normal" | "full";
  /** Long-running processes (the server) checkpoint the WAL from a worker thread instead of inside writes. */
  backgroundCheckpoints?: boolean;
  /** How this process hears of appends by the other processes of its group (a follower polls otherwise). */
  notices?: AppendNotices | undefined;
  /**
   * Document replaces and audit records commit on a writer thread (writer.ts); a file only, as a `:memory:` database
   * is per connection.
   */
  writerThread?: boolean;
}

/** Opens the memory file and its session log's file, which is named after it (session-log-file.ts). */
export function openSqliteStore(file: string, opts: SqliteOptions = {}): Store {
  const { db, log, logFile } = openFiles(file, opts);
  const onFile = file !== ":memory:";
  const background = opts.backgroundCheckpoints && onFile;
  const checkpointer = background ? startBackgroundCheckpoints([{ db, file }, { db: log, file: logFile }]) : null;
  const writer = opts.writerThread && onFile ? new SqliteWriter({ file, synchronous: opts.synchronous }) : null;
  return new SqliteStore(db, log, checkpointer, opts.notices ?? null, writer);
}

/** Both files, schemas up to date, the session tables out of a memory file made before the split. */
export function openFiles(file: string, opts: Pick<SqliteOptions, "synchronous"> = {}): { db: Db; log: Db; logFile: string } {
  const logFile = sessionLogFileOf(file);
  const log = openDatabase(logFile, logMigrations, opts);
  const db = openDatabase(file, migrations, opts);
  moveSessionTables(db, log);
  return { db, log, logFile };
}

export class SqliteStore implements Store {
  private readonly workspaces: WorkspaceRepo;
  private readonly documents: DocumentRepo;
  private readonly feed: SearchFeedRepo;
  private readonly events: EventRepo;
  private readonly streams: EventLogRepo;
  private readonly records: RecordRepo;
  private readonly cognitive: CognitiveRepo;
  private readonly sessions: SessionRepo;
  private readonly vectorStmts;

  constructor(
    private readonly db: Db,
    private readonly log: Db,
    private readonly checkpointer: Checkpointer | null,
    notices: AppendNotices | null,
    private readonly writer: SqliteWriter | null,
  ) {
    this.workspaces = new WorkspaceRepo(db);
    this.documents = new DocumentRepo(db);
    this.feed = new SearchFeedRepo(db);
    this.events = new EventRepo(db);
    this.streams = new EventLogRepo(log, notices);
    this.records = new RecordRepo(db);
    this.cognitive = new CognitiveRepo(db);
    this.sessions = new SessionRepo(log);
    // Prepared once: every ingest reads and writes vectors.
    this.vectorStmts = {
      get: db.prepare("SELECT vector FROM embeddings WHERE embedder_id = ? AND chunk_hash = ?").pluck(),
      insert: db.prepare("INSERT OR REPLACE INTO embeddings (embedder_id, chunk_hash, vector) VALUES (?, ?, ?)"),
      announce: db.prepare("INSERT INTO changes (workspace_id, chunk_id, op) SELECT workspace_id, id, 1 FROM chunks WHERE chunk_hash = ?"),
    };
  }

  ensureWorkspace = async (name: string, now: number) => this.workspaces.ensure(name, now);
  findWorkspace = async (nameOrId: string) => this.workspaces.find(nameOrId);
  listWorkspaces = async () => this.workspaces.list();
  insertToken = async (t: TokenRecord, hash: string) => this.workspaces.insertToken(t, hash);
  findTokenByHash = async (hash: string) => this.workspaces.findTokenByHash(hash);
  listTokens = async (workspaceId?: string) => this.workspaces.listTokens(workspaceId);
  revokeToken = async (id: string, now: number) => this.workspaces.revokeToken(id, now);

  getDocument = async (ws: string, path: string) => this.documents.get(ws, path);
  documentChunks = async (ws: string, path: string) => this.documents.chunksOf(ws, path);
  listDocuments = async (ws: string, prefix?: string) => this.documents.list(ws, prefix);
  storedChunkHashes = async (ws: string, hashes: readonly string[]) => this.documents.storedChunkHashes(ws, hashes);
  chunksByHash = async (ws: string, hash: string) => this.documents.chunksByHash(ws, hash);
  wasForgotten = async (ws: string, key: { sourcePath?: string; chunkHash?: string }) => this.documents.wasForgotten(ws, key);
  getChunks = async (ws: string, ids: readonly number[]) => this.documents.getChunks(ws, ids);

  async replaceDocument(ws: string, doc: DocumentRecord, chunks: ChunkInput[], audit?: EventDraft, vectors?: NewVectors): Promise<void> {
    if (!this.writer?.usable) return this.inTransaction(() => this.applySideEffects(ws, { events: audit && [audit], document: { doc, chunks, vectors } }));
    try {
      await this.writer.replace({ workspaceId: ws, doc, chunks, audit, vectors });
    } finally {
      this.feed.wrote();
    }
  }

  private applySideEffects(ws: string, also: RecordSideEffects | undefined): void {
    const write: DocumentWrite | undefined = also?.document;
    if (write?.vectors) this.insertVectors(write.vectors.embedderId, write.vectors.byHash);
    if (write) this.documents.replace(ws, write.doc, write.chunks);
    for (const r of also?.records ?? []) this.records.insert(ws, r);
    if (also?.events?.length) this.events.append(ws, also.events);
  }

  async insertRecord(ws: string, record: RecordRow, also?: RecordSideEffects): Promise<{ record: StoredRecord; created: boolean }> {
    return this.inTransaction(() => {
      const created = this.records.insert(ws, record);
      if (created) this.applySideEffects(ws, also);
      return { record: this.records.get(ws, record.id)!, created };
    });
  }

  async transitionRecord(ws: string, id: string, from: string, to: string, body: unknown, also?: RecordSideEffects): Promise<StoredRecord | undefined> {
    return this.inTransaction(() => {
      if (!this.records.transition(ws, id, from, to, body)) return undefined;
      this.applySideEffects(ws, also);
      return this.records.get(ws, id);
    });
  }

  getRecord = async (ws: string, id: string) => this.records.get(ws, id);
  childRecords = async (ws: string, parentId: string) => this.records.children(ws, parentId);
  listRecords = async (ws: string, q: RecordQuery) => this.records.list(ws, q);
  countRecords = async (ws: string) => this.records.counts(ws);

  async forgetSource(ws: string, path: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]> {
    return this.inTransaction(() => this.withForgetEvent(ws, this.documents.forgetSource(ws, path, now), { sourcePath: path }, audit));
  }

  async forgetChunkHash(ws: string, hash: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]> {
    return this.inTransaction(() => this.withForgetEvent(ws, this.documents.forgetChunkHash(ws, hash, now), { chunkHash: hash }, audit));
  }

  /** Logs effective and repeated forgets; a target that never existed is a 404, not an event. */
  private withForgetEvent(ws: string, removed: RemovedChunk[], key: { sourcePath?: string; chunkHash?: string }, audit?: EventDraft): RemovedChunk[] {
    if (audit && (removed.length > 0 || this.documents.wasForgotten(ws, key))) this.events.append(ws, [{ ...audit, payload: { ...(audit.payload as object), removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })) } }]);
    return removed;
  }

  /** One write transaction around a change and its audit event; the search engine sees it at its next change check. */
  private inTransaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.feed.wrote();
    }
  }

  changeMarker = () => this.feed.changeMarker();
  latestChange = async () => this.feed.latestChange();
  changesSince = async (seq: number, limit: number) => this.feed.changesSince(seq, limit);
  indexedChunks = async (ws: string, cursor: string | null, limit: number) => this.feed.indexedChunks(ws, cursor, limit);
  vectorCount = async (ws: string, embedderId: string) => this.feed.vectorCount(ws, embedderId);
  chunkVectors = async (ws: string, embedderId: string, cursor: string | null, limit: number) => this.feed.chunkVectors(ws, embedderId, cursor, limit);

  async getEmbeddings(embedderId: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const stmt = this.vectorStmts.get;
    const out = new Map<string, Float32Array>();
    for (const h of new Set(hashes)) {
      const blob = stmt.get(embedderId, h) as Buffer | undefined;
      if (blob) out.set(h, fromBlob(blob));
    }
    return out;
  }

  async putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    const announce = this.vectorStmts.announce;
    this.inTransaction(() => {
      this.insertVectors(embedderId, entries);
      for (const hash of entries.keys()) announce.run(hash);
    });
  }

  private insertVectors(embedderId: string, entries: ReadonlyMap<string, Float32Array>): void {
    const insert = this.vectorStmts.insert;
    for (const [hash, vector] of entries) insert.run(embedderId, hash, toBlob(vector));
  }

  async chunksMissingEmbedding(embedderId: string, limit: number): Promise<{ chunkHash: string; text: string }[]> {
    return this.db
      .prepare(
        `SELECT chunk_hash AS chunkHash, MIN(text) AS text FROM chunks k
         WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = ? AND e.chunk_hash = k.chunk_hash)
         GROUP BY chunk_hash LIMIT ?`,
      )
      .all(embedderId, limit) as { chunkHash: string; text: string }[];
  }

  appendEvents = async (ws: string, drafts: readonly EventDraft[]) => (this.writer?.usable ? this.writer.appendEvents(ws, drafts) : this.events.append(ws, drafts));
  listEvents = async (ws: string, q: EventQuery) => this.events.list(ws, q);
  eventHead = async (ws: string) => this.events.head(ws);

  appendStream = async (ws: string, stream: string, drafts: readonly StreamEventDraft[]) => this.streams.append(ws, stream, drafts);
  readStream = async (ws: string, stream: string, afterSeq: number, limit: number) => this.streams.read(ws, stream, afterSeq, limit);
  subscribeStream = (ws: string, stream: string, wake: Wake) => this.streams.subscribe(ws, stream, wake);

  upsertSession = async (row: SessionRow) => this.sessions.upsert(row);
  getSession = async (ws: string, id: string) => this.sessions.get(ws, id);
  listSessions = async (ws: string, q: SessionQuery) => this.sessions.list(ws, q);
  claimSession = async (key: SessionKey, owner: string, now: number, staleBefore: number, takeOverFrom?: string) => this.sessions.claim(key, owner, now, staleBefore, takeOverFrom);
  heartbeatSessions = async (owner: string, keys: readonly SessionKey[], at: number) => this.sessions.heartbeat(owner, keys, at);
  releaseSessions = async (owner: string, keys: readonly SessionKey[]) => this.sessions.release(owner, keys);
  sessionsInStatus = async (kind: SessionRow["kind"], statuses: readonly string[]) => this.sessions.inStatus(kind, statuses);

  addCounters = async (rows: readonly CounterIncrement[]) => this.cognitive.addCounters(rows);
  counterTotals = async (q: CounterQuery) => this.cognitive.counterTotals(q);
  addImpressions = async (rows: readonly ImpressionIncrement[]) => this.cognitive.addImpressions(rows);
  listImpressions = async () => this.cognitive.listImpressions();
  appendCognitiveRecords = async (records: readonly CognitiveRecord[]) => this.cognitive.append(records);
  listCognitiveRecords = async (q: CognitiveRecordQuery) => this.cognitive.list(q);
  putTrace = async (workspaceId: string, traceId: string, at: number, payload: unknown, keep: number) => this.cognitive.putTrace(workspaceId, traceId, at, payload, keep);
  getTrace = async (workspaceId: string, traceId: string) => this.cognitive.getTrace(workspaceId, traceId);

  async close(): Promise<void> {
    await this.writer?.close();
    await this.checkpointer?.stop();
    this.db.close();
    this.log.close();
  }
}
