// The embedded default Store: one SQLite file (WAL) for truth, in-memory indexes for speed.
import type {
  ChunkFilter,
  ChunkInput,
  CognitiveRecord,
  CognitiveRecordQuery,
  CounterIncrement,
  ImpressionIncrement,
  CounterQuery,
  DocumentRecord,
  DocumentWrite,
  EventDraft,
  EventQuery,
  NewVectors,
  RecordQuery,
  RecordRow,
  RecordSideEffects,
  RemovedChunk,
  StoredRecord,
  Store,
  TokenRecord,
} from "../../ports.ts";
import { openDatabase, type Db } from "./open.ts";
import { WorkspaceRepo } from "./workspaces.ts";
import { DocumentRepo } from "./documents.ts";
import { LiveIndexes } from "./live-index.ts";
import { EventRepo } from "./events.ts";
import { RecordRepo } from "./records.ts";
import { CognitiveRepo } from "./cognitive.ts";
import { startBackgroundCheckpoints, type Checkpointer } from "./checkpointer.ts";
// eslint-disable-next-line no-restricted-imports -- the search engine moves out of the store in the next step
import { fromBlob, toBlob } from "../../embed/vector.ts";

export interface SqliteOptions {
  synchronous?: "normal" | "full";
  /** Long-running processes (the server) checkpoint the WAL from a worker thread instead of inside writes. */
  backgroundCheckpoints?: boolean;
}

export function openSqliteStore(file: string, opts: SqliteOptions = {}): Store {
  const db = openDatabase(file, opts);
  return new SqliteStore(db, opts.backgroundCheckpoints && file !== ":memory:" ? startBackgroundCheckpoints(db, file) : null);
}

class SqliteStore implements Store {
  private readonly workspaces: WorkspaceRepo;
  private readonly documents: DocumentRepo;
  private readonly indexes: LiveIndexes;
  private readonly events: EventRepo;
  private readonly records: RecordRepo;
  private readonly cognitive: CognitiveRepo;
  private readonly vectorStmts;

  constructor(
    private readonly db: Db,
    private readonly checkpointer: Checkpointer | null,
  ) {
    this.workspaces = new WorkspaceRepo(db);
    this.documents = new DocumentRepo(db);
    this.indexes = new LiveIndexes(db);
    this.events = new EventRepo(db);
    this.records = new RecordRepo(db);
    this.cognitive = new CognitiveRepo(db);
    // Prepared once: every ingest reads and writes vectors.
    this.vectorStmts = {
      get: db.prepare("SELECT vector FROM embeddings WHERE embedder_id = ? AND chunk_hash = ?").pluck(),
      insert: db.prepare("INSERT OR REPLACE INTO embeddings (embedder_id, chunk_hash, vector) VALUES (?, ?, ?)"),
      announce: db.prepare("INSERT INTO changes (workspace_id, chunk_id, op) SELECT workspace_id, id, 1 FROM chunks WHERE chunk_hash = ?"),
    };
  }

  ensureWorkspace = (name: string, now: number) => this.workspaces.ensure(name, now);
  findWorkspace = (nameOrId: string) => this.workspaces.find(nameOrId);
  listWorkspaces = () => this.workspaces.list();
  insertToken = (t: TokenRecord, hash: string) => this.workspaces.insertToken(t, hash);
  findTokenByHash = (hash: string) => this.workspaces.findTokenByHash(hash);
  listTokens = (workspaceId?: string) => this.workspaces.listTokens(workspaceId);
  revokeToken = (id: string, now: number) => this.workspaces.revokeToken(id, now);

  getDocument = (ws: string, path: string) => this.documents.get(ws, path);
  documentChunks = (ws: string, path: string) => this.documents.chunksOf(ws, path);
  listDocuments = (ws: string, prefix?: string) => this.documents.list(ws, prefix);
  hasChunkHash = (ws: string, hash: string) => this.documents.hasChunkHash(ws, hash);
  chunksByHash = (ws: string, hash: string) => this.documents.chunksByHash(ws, hash);
  wasForgotten = (ws: string, key: { sourcePath?: string; chunkHash?: string }) => this.documents.wasForgotten(ws, key);
  getChunks = (ws: string, ids: readonly number[]) => this.documents.getChunks(ws, ids);

  replaceDocument(ws: string, doc: DocumentRecord, chunks: ChunkInput[], audit?: EventDraft, vectors?: NewVectors): void {
    this.inTransaction(() => this.applySideEffects(ws, { events: audit && [audit], document: { doc, chunks, vectors } }));
  }

  private applySideEffects(ws: string, also: RecordSideEffects | undefined): void {
    const write: DocumentWrite | undefined = also?.document;
    if (write?.vectors) this.insertVectors(write.vectors.embedderId, write.vectors.byHash);
    if (write) this.documents.replace(ws, write.doc, write.chunks);
    for (const r of also?.records ?? []) this.records.insert(ws, r);
    if (also?.events?.length) this.events.append(ws, also.events);
  }

  insertRecord(ws: string, record: RecordRow, also?: RecordSideEffects): { record: StoredRecord; created: boolean } {
    return this.inTransaction(() => {
      const created = this.records.insert(ws, record);
      if (created) this.applySideEffects(ws, also);
      return { record: this.records.get(ws, record.id)!, created };
    });
  }

  transitionRecord(ws: string, id: string, from: string, to: string, body: unknown, also?: RecordSideEffects): StoredRecord | undefined {
    return this.inTransaction(() => {
      if (!this.records.transition(ws, id, from, to, body)) return undefined;
      this.applySideEffects(ws, also);
      return this.records.get(ws, id);
    });
  }

  getRecord = (ws: string, id: string) => this.records.get(ws, id);
  childRecords = (ws: string, parentId: string) => this.records.children(ws, parentId);
  listRecords = (ws: string, q: RecordQuery) => this.records.list(ws, q);
  countRecords = (ws: string) => this.records.counts(ws);

  forgetSource(ws: string, path: string, now: number, audit?: EventDraft) {
    return this.inTransaction(() => this.withForgetEvent(ws, this.documents.forgetSource(ws, path, now), { sourcePath: path }, audit));
  }

  forgetChunkHash(ws: string, hash: string, now: number, audit?: EventDraft) {
    return this.inTransaction(() => this.withForgetEvent(ws, this.documents.forgetChunkHash(ws, hash, now), { chunkHash: hash }, audit));
  }

  /** Logs effective and repeated forgets; a target that never existed is a 404, not an event. */
  private withForgetEvent(ws: string, removed: RemovedChunk[], key: { sourcePath?: string; chunkHash?: string }, audit?: EventDraft): RemovedChunk[] {
    if (audit && (removed.length > 0 || this.documents.wasForgotten(ws, key))) this.events.append(ws, [{ ...audit, payload: { ...(audit.payload as object), removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })) } }]);
    return removed;
  }

  /** One write transaction around a change and its audit event; the in-memory indexes catch up on next read. */
  private inTransaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.indexes.invalidate();
    }
  }

  warm(ws: string, embedder?: { id: string; dimensions: number }): void {
    this.indexes.get(ws);
    if (embedder) this.indexes.vectors(ws, embedder.id, embedder.dimensions);
  }

  searchLexical(ws: string, terms: readonly string[], k: number, filter: ChunkFilter) {
    const index = this.indexes.get(ws);
    return index.bm25.search(terms, k, index.accept(filter));
  }

  lexicalScores(ws: string, terms: readonly string[], ids: readonly number[]) {
    const bm25 = this.indexes.get(ws).bm25;
    return ids.map((id) => bm25.score(terms, id));
  }

  lexicalMaxScore = (ws: string, terms: readonly string[]) => this.indexes.get(ws).bm25.maxScore(terms);

  searchDense(ws: string, embedderId: string, query: Float32Array, k: number, filter: ChunkFilter) {
    const index = this.indexes.get(ws);
    return this.indexes.vectors(ws, embedderId, query.length).search(query, k, index.accept(filter));
  }

  denseSimilarities(ws: string, embedderId: string, query: Float32Array, ids: readonly number[]) {
    const index = this.indexes.vectors(ws, embedderId, query.length);
    return ids.map((id) => index.similarity(query, id));
  }

  chunkVector = (ws: string, embedderId: string, dims: number, id: number) => this.indexes.vectors(ws, embedderId, dims).get(id);

  getEmbeddings(embedderId: string, hashes: readonly string[]): Map<string, Float32Array> {
    const stmt = this.vectorStmts.get;
    const out = new Map<string, Float32Array>();
    for (const h of new Set(hashes)) {
      const blob = stmt.get(embedderId, h) as Buffer | undefined;
      if (blob) out.set(h, fromBlob(blob));
    }
    return out;
  }

  /** Stores vectors for chunks already stored and re-announces those chunks, so loaded vector indexes pick them up. */
  putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): void {
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

  chunksMissingEmbedding(embedderId: string, limit: number) {
    return this.db
      .prepare(
        `SELECT chunk_hash AS chunkHash, MIN(text) AS text FROM chunks k
         WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = ? AND e.chunk_hash = k.chunk_hash)
         GROUP BY chunk_hash LIMIT ?`,
      )
      .all(embedderId, limit) as { chunkHash: string; text: string }[];
  }

  appendEvents = (ws: string, drafts: readonly EventDraft[]) => this.events.append(ws, drafts);
  listEvents = (ws: string, q: EventQuery) => this.events.list(ws, q);
  eventHead = (ws: string) => this.events.head(ws);

  addCounters = (rows: readonly CounterIncrement[]) => this.cognitive.addCounters(rows);
  counterTotals = (q: CounterQuery) => this.cognitive.counterTotals(q);
  addImpressions = (rows: readonly ImpressionIncrement[]) => this.cognitive.addImpressions(rows);
  listImpressions = () => this.cognitive.listImpressions();
  appendCognitiveRecords = (records: readonly CognitiveRecord[]) => this.cognitive.append(records);
  listCognitiveRecords = (q: CognitiveRecordQuery) => this.cognitive.list(q);
  putTrace = (workspaceId: string, traceId: string, at: number, payload: unknown, keep: number) => this.cognitive.putTrace(workspaceId, traceId, at, payload, keep);
  getTrace = (workspaceId: string, traceId: string) => this.cognitive.getTrace(workspaceId, traceId);

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    this.db.close();
  }
}
