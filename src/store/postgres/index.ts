// The PostgreSQL Store (SMRITI_DATABASE_URL): the same ports as the embedded SQLite store, for several replicas on one
// database. Chunk writers hold one advisory lock so the change log's order is commit order; the audit chain and each
// event stream take their own.
import type { CognitiveRecord, CognitiveRecordQuery, CounterIncrement, CounterQuery, ImpressionIncrement } from "../../ports/cognitive.ts";
import type { EventDraft, EventQuery } from "../../ports/audit-log.ts";
import type { StreamEventDraft, Wake } from "../../ports/event-log.ts";
import type { ChunkInput, DocumentRecord, NewVectors, RemovedChunk } from "../../ports/documents.ts";
import type { RecordQuery, RecordRow, RecordSideEffects, StoredRecord } from "../../ports/records.ts";
import type { SessionKey, SessionQuery, SessionRow } from "../../ports/session-index.ts";
import type { Store } from "../../ports/store.ts";
import type { TokenRecord } from "../../ports/workspaces.ts";
import { fromBlob, toBlob } from "../vector-blob.ts";
import { CognitiveRepo } from "./cognitive.ts";
import { DocumentRepo } from "./documents.ts";
import { EventLogRepo } from "./event-log.ts";
import { EventRepo } from "./events.ts";
import { lock, openDatabase, transaction, type Db } from "./open.ts";
import { RecordRepo } from "./records.ts";
import { LOCK } from "./schema.ts";
import { SearchFeedRepo } from "./search-feed.ts";
import { SessionRepo } from "./sessions.ts";
import { StreamFollowers } from "../stream-followers.ts";
import { StreamListener } from "./stream-listener.ts";
import { guardConnectionLoss } from "./unavailable.ts";
import { WorkspaceRepo } from "./workspaces.ts";
import type pg from "pg";

export interface PostgresOptions {
  /** Connections in this replica's pool (default 10). */
  maxConnections?: number;
  /** How long a request waits for a connection before answering store_unavailable (default 5 s). */
  connectTimeoutMs?: number;
}

export async function openPostgresStore(url: string, opts: PostgresOptions = {}): Promise<Store> {
  const db = await openDatabase(url, { max: opts.maxConnections ?? 10, connectTimeoutMs: opts.connectTimeoutMs ?? 5_000 });
  return guardConnectionLoss(new PostgresStore(db, url));
}

class PostgresStore implements Store {
  private readonly workspaces: WorkspaceRepo;
  private readonly documents: DocumentRepo;
  private readonly feed: SearchFeedRepo;
  private readonly events: EventRepo;
  private readonly streams: EventLogRepo;
  private readonly records: RecordRepo;
  private readonly cognitive: CognitiveRepo;
  private readonly sessions: SessionRepo;

  private readonly listener: StreamListener;

  constructor(
    private readonly db: Db,
    url: string,
  ) {
    this.workspaces = new WorkspaceRepo(db);
    this.documents = new DocumentRepo(db);
    this.feed = new SearchFeedRepo(db);
    this.events = new EventRepo(db);
    const followers = new StreamFollowers();
    this.listener = new StreamListener(url, followers);
    this.streams = new EventLogRepo(db, followers, this.listener.origin);
    this.records = new RecordRepo(db);
    this.cognitive = new CognitiveRepo(db);
    this.sessions = new SessionRepo(db);
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
  storedChunkHashes = (ws: string, hashes: readonly string[]) => this.documents.storedChunkHashes(ws, hashes);
  chunksByHash = (ws: string, hash: string) => this.documents.chunksByHash(ws, hash);
  wasForgotten = (ws: string, key: { sourcePath?: string; chunkHash?: string }) => this.documents.wasForgotten(ws, key);
  getChunks = (ws: string, ids: readonly number[]) => this.documents.getChunks(ws, ids);

  async replaceDocument(ws: string, doc: DocumentRecord, chunks: ChunkInput[], audit?: EventDraft, vectors?: NewVectors): Promise<void> {
    await transaction(this.db, (c) => this.applySideEffects(c, ws, { events: audit && [audit], document: { doc, chunks, vectors } }));
  }

  private async applySideEffects(c: pg.PoolClient, ws: string, also: RecordSideEffects | undefined): Promise<void> {
    const write = also?.document;
    if (write) {
      if (write.vectors) await this.insertVectors(c, write.vectors.embedderId, write.vectors.byHash);
      await this.documents.replace(c, ws, write.doc, write.chunks); // takes LOCK.changes, before any LOCK.audit below
    }
    for (const r of also?.records ?? []) await this.records.insert(c, ws, r);
    if (also?.events?.length) await this.events.append(c, ws, also.events);
  }

  async insertRecord(ws: string, record: RecordRow, also?: RecordSideEffects): Promise<{ record: StoredRecord; created: boolean }> {
    return transaction(this.db, async (c) => {
      const created = await this.records.insert(c, ws, record);
      if (created) await this.applySideEffects(c, ws, also);
      return { record: (await this.records.get(ws, record.id, c))!, created };
    });
  }

  async transitionRecord(ws: string, id: string, from: string, to: string, body: unknown, also?: RecordSideEffects): Promise<StoredRecord | undefined> {
    return transaction(this.db, async (c) => {
      if (!(await this.records.transition(c, ws, id, from, to, body))) return undefined;
      await this.applySideEffects(c, ws, also);
      return this.records.get(ws, id, c);
    });
  }

  getRecord = (ws: string, id: string) => this.records.get(ws, id);
  childRecords = (ws: string, parentId: string) => this.records.children(ws, parentId);
  listRecords = (ws: string, q: RecordQuery) => this.records.list(ws, q);
  countRecords = (ws: string) => this.records.counts(ws);

  async forgetSource(ws: string, path: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]> {
    return this.forget(ws, { sourcePath: path }, audit, (c) => this.documents.forgetSource(c, ws, path, now));
  }

  async forgetChunkHash(ws: string, hash: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]> {
    return this.forget(ws, { chunkHash: hash }, audit, (c) => this.documents.forgetChunkHash(c, ws, hash, now));
  }

  /** Logs effective and repeated forgets; a target that never existed is a 404, not an event. */
  private forget(ws: string, key: { sourcePath?: string; chunkHash?: string }, audit: EventDraft | undefined, remove: (c: pg.PoolClient) => Promise<RemovedChunk[]>): Promise<RemovedChunk[]> {
    return transaction(this.db, async (c) => {
      await lock(c, LOCK.changes);
      const removed = await remove(c);
      if (audit && (removed.length > 0 || (await this.documents.wasForgotten(ws, key, c)))) {
        const payload = { ...(audit.payload as object), removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })) };
        await this.events.append(c, ws, [{ ...audit, payload }]);
      }
      return removed;
    });
  }

  changeMarker = () => this.feed.changeMarker();
  latestChange = () => this.feed.latestChange();
  changesSince = (seq: number, limit: number) => this.feed.changesSince(seq, limit);
  indexedChunks = (ws: string, cursor: string | null, limit: number) => this.feed.indexedChunks(ws, cursor, limit);
  vectorCount = (ws: string, embedderId: string) => this.feed.vectorCount(ws, embedderId);
  chunkVectors = (ws: string, embedderId: string, cursor: string | null, limit: number) => this.feed.chunkVectors(ws, embedderId, cursor, limit);

  async getEmbeddings(embedderId: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0) return out;
    const { rows } = await this.db.query<{ chunk_hash: string; vector: Buffer }>({
      name: "embeddings_get",
      text: "SELECT chunk_hash, vector FROM embeddings WHERE embedder_id = $1 AND chunk_hash = ANY($2::text[])",
      values: [embedderId, [...new Set(hashes)]],
    });
    for (const r of rows) out.set(r.chunk_hash, fromBlob(r.vector));
    return out;
  }

  async putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    if (entries.size === 0) return;
    await transaction(this.db, async (c) => {
      await lock(c, LOCK.changes);
      await this.insertVectors(c, embedderId, entries);
      // Announce the chunks again, so loaded vector indexes on every replica pick the vectors up.
      await c.query("INSERT INTO changes (workspace_id, chunk_id, op) SELECT workspace_id, id, 1 FROM chunks WHERE chunk_hash = ANY($1::text[]) ORDER BY id", [[...entries.keys()]]);
    });
  }

  private async insertVectors(c: pg.PoolClient, embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    if (entries.size === 0) return;
    await c.query(
      `INSERT INTO embeddings (embedder_id, chunk_hash, vector) SELECT $1, * FROM unnest($2::text[], $3::bytea[])
       ON CONFLICT (embedder_id, chunk_hash) DO UPDATE SET vector = excluded.vector`,
      [embedderId, [...entries.keys()], [...entries.values()].map(toBlob)],
    );
  }

  async chunksMissingEmbedding(embedderId: string, limit: number): Promise<{ chunkHash: string; text: string }[]> {
    const { rows } = await this.db.query<{ chunkHash: string; text: string }>(
      `SELECT chunk_hash AS "chunkHash", MIN(text) AS text FROM chunks k
       WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = $1 AND e.chunk_hash = k.chunk_hash)
       GROUP BY chunk_hash LIMIT $2`,
      [embedderId, limit],
    );
    return rows;
  }

  appendEvents = (ws: string, drafts: readonly EventDraft[]) => transaction(this.db, (c) => this.events.append(c, ws, drafts));
  listEvents = (ws: string, q: EventQuery) => this.events.list(ws, q);
  eventHead = (ws: string) => this.events.head(ws);

  appendStream = (ws: string, stream: string, drafts: readonly StreamEventDraft[]) => this.streams.append(ws, stream, drafts);
  readStream = (ws: string, stream: string, afterSeq: number, limit: number) => this.streams.read(ws, stream, afterSeq, limit);
  subscribeStream = (ws: string, stream: string, wake: Wake) => {
    this.listener.ensure();
    return this.streams.followers.subscribe(ws, stream, wake);
  };

  upsertSession = (row: SessionRow) => this.sessions.upsert(row);
  getSession = (ws: string, id: string) => this.sessions.get(ws, id);
  listSessions = (ws: string, q: SessionQuery) => this.sessions.list(ws, q);
  claimSession = (key: SessionKey, owner: string, now: number, staleBefore: number, takeOverFrom?: string) => this.sessions.claim(key, owner, now, staleBefore, takeOverFrom);
  heartbeatSessions = (owner: string, keys: readonly SessionKey[], at: number) => this.sessions.heartbeat(owner, keys, at);
  releaseSessions = (owner: string, keys: readonly SessionKey[]) => this.sessions.release(owner, keys);
  sessionsInStatus = (kind: SessionRow["kind"], statuses: readonly string[]) => this.sessions.inStatus(kind, statuses);

  addCounters = (rows: readonly CounterIncrement[]) => this.cognitive.addCounters(rows);
  counterTotals = (q: CounterQuery) => this.cognitive.counterTotals(q);
  addImpressions = (rows: readonly ImpressionIncrement[]) => this.cognitive.addImpressions(rows);
  listImpressions = () => this.cognitive.listImpressions();
  appendCognitiveRecords = (records: readonly CognitiveRecord[]) => this.cognitive.append(records);
  listCognitiveRecords = (q: CognitiveRecordQuery) => this.cognitive.list(q);
  putTrace = (workspaceId: string, traceId: string, at: number, payload: unknown, keep: number) => this.cognitive.putTrace(workspaceId, traceId, at, payload, keep);
  getTrace = (workspaceId: string, traceId: string) => this.cognitive.getTrace(workspaceId, traceId);

  private closing: Promise<void> | null = null;

  /** Idempotent, as SQLite's: runtimes sharing one store may each close it. */
  close(): Promise<void> {
    this.closing ??= this.listener.close().then(() => this.db.end());
    return this.closing;
  }
}
