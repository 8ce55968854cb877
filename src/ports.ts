// The narrow interfaces services depend on; adapters implement them, the domain never sees them.
import type { Scored } from "./domain/retrieval/topk.ts";
import type { HashedFields } from "./domain/audit/event-hash.ts";
import type { DocumentKind } from "./domain/text/chunk.ts";

/** Turns texts into unit-length vectors; `id` changes whenever the vectors would. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Nearest words in a word-embedding space, most similar first (query expansion); the GloVe embedder provides one. */
export interface WordNeighbours {
  neighbours(word: string, n: number): { word: string; similarity: number }[];
}

/** Cosine similarity of two lowercase words' vectors, 0 when either is unknown (answer spans: "what team" ~ a club's name). */
export interface WordSimilarity {
  similarity(a: string, b: string): number;
}

/** Wall clock, injected so the domain and tests stay deterministic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Workspace {
  id: string;
  name: string;
  createdAt: number;
}

export interface TokenRecord {
  id: string;
  workspaceId: string;
  actors: string[];
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface DocumentRecord {
  sourcePath: string;
  documentHash: string;
  kind: DocumentKind;
  authoredAt: number;
  ingestedAt: number;
  content: string;
}

export interface ChunkRecord {
  id: number;
  sourcePath: string;
  ord: number;
  chunkHash: string;
  anchor: string;
  start: number;
  end: number;
  text: string;
  /** Its BM25 terms as ingest stored them, space-separated: layers compare chunks by these without tokenizing again (split only for the few they examine). */
  terms: string;
  authoredAt: number;
}

/** A chunk ready to store: its BM25 terms and (optionally) its vector are computed before the write transaction. */
export interface ChunkInput {
  chunkHash: string;
  anchor: string;
  start: number;
  end: number;
  text: string;
  terms: string[];
}

/** Vectors computed for an ingest, stored in the same transaction as its chunks. */
export interface NewVectors {
  embedderId: string;
  byHash: ReadonlyMap<string, Float32Array>;
}

/** Metadata filters evaluated inside the indexes, so k results survive filtering. */
export interface ChunkFilter {
  sourcePathPrefix?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

export interface RemovedChunk {
  sourcePath: string;
  chunkHash: string;
  anchor: string;
}

/** An audit event before the store gives it a place in the workspace's hash chain. */
export interface EventDraft {
  type: string;
  actorId: string | null;
  tokenId: string | null;
  at: number;
  trajectoryId: string | null;
  payload: unknown;
}

/** A stored event: every hashed field (payload as the exact canonical JSON text that was hashed) plus its hash. */
export interface StoredEvent extends HashedFields {
  hash: string;
}

export interface EventQuery {
  /** Keyset cursor: seq strictly after (asc) or before (desc) this. */
  afterSeq?: number | undefined;
  /** By seq; asc (the chain's own order) unless said. */
  order?: "asc" | "desc" | undefined;
  limit: number;
  types?: readonly string[] | undefined;
  actorId?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  trajectoryId?: string | undefined;
}

/** A document write prepared outside the transaction (chunks tokenized, vectors computed) and committed inside it. */
export interface DocumentWrite {
  doc: DocumentRecord;
  chunks: ChunkInput[];
  vectors?: NewVectors | undefined;
}

/** Kinds of durable knowledge records: stored decisions, the three assimilation stages, and memory proposals. */
export type RecordKind = "decision" | "shravan" | "manan" | "nididhyasan" | "proposal";

/** A knowledge record; `body` is the JSON the service returns for it. */
export interface RecordRow {
  id: string;
  kind: RecordKind;
  /** A decision's namespace; null for kinds without one. */
  group: string | null;
  /** The record this one was made from (manan -> shravan, nididhyasan -> manan, proposal -> nididhyasan). */
  parentId: string | null;
  /** A proposal's review state; null for kinds without one. */
  status: string | null;
  createdAt: number;
  body: unknown;
}

/** A stored record with its insertion order, which keyset paging uses: later inserts never shift earlier pages. */
export interface StoredRecord extends RecordRow {
  seq: number;
}

export interface RecordQuery {
  kinds: readonly RecordKind[];
  group?: string | undefined;
  status?: string | undefined;
  /** Only records nothing was made from yet (the review queue). */
  childless?: boolean | undefined;
  /** Keyset cursor: seq strictly after (asc) or before (desc) this. */
  afterSeq?: number | undefined;
  order: "asc" | "desc";
  limit: number;
}

/** Writes committed with a record in its transaction. */
export interface RecordSideEffects {
  events?: readonly EventDraft[] | undefined;
  document?: DocumentWrite | undefined;
  /** Further new records made together with this one (e.g. the proposal of a practice record). */
  records?: readonly RecordRow[] | undefined;
}

/** Increments of one cognitive layer's counter in one workspace, summed per hour bucket (start of the hour, epoch ms). */
export interface CounterIncrement {
  workspaceId: string;
  hour: number;
  layer: string;
  counter: string;
  n: number;
}

/** chitta's impressions: how many more times a chunk was served in a workspace. */
export interface ImpressionIncrement {
  workspaceId: string;
  chunkHash: string;
  n: number;
}

export interface CounterTotal {
  workspaceId: string;
  layer: string;
  counter: string;
  n: number;
}

/** Hour buckets at or after `since` and before `until`; one workspace or all. */
export interface CounterQuery {
  since?: number | undefined;
  until?: number | undefined;
  workspaceId?: string | undefined;
}

/** A durable figure of the cognitive stack: a tuner decision, an ablation run, tuned parameters. */
export interface CognitiveRecord {
  kind: string;
  /** null = deployment-wide (eval runs). */
  workspaceId: string | null;
  at: number;
  payload: unknown;
}

export interface StoredCognitiveRecord extends CognitiveRecord {
  seq: number;
}

export interface CognitiveRecordQuery {
  kind: string;
  since?: number | undefined;
  limit: number;
}

/** Persistence and search of one deployment's vaults; every call is scoped by workspace id. */
export interface Store {
  ensureWorkspace(name: string, now: number): Workspace;
  findWorkspace(nameOrId: string): Workspace | undefined;
  listWorkspaces(): Workspace[];

  insertToken(token: TokenRecord, tokenHash: string): void;
  findTokenByHash(tokenHash: string): TokenRecord | undefined;
  listTokens(workspaceId?: string): TokenRecord[];
  revokeToken(id: string, now: number): boolean;

  getDocument(workspaceId: string, sourcePath: string): DocumentRecord | undefined;
  documentChunks(workspaceId: string, sourcePath: string): ChunkRecord[];
  /** The workspace's documents (content included) whose source_path starts with the prefix, by source_path. */
  listDocuments(workspaceId: string, sourcePathPrefix?: string): DocumentRecord[];
  /** Replaces a source's chunks in one transaction: readers see the old version or the new, never both. */
  replaceDocument(workspaceId: string, doc: DocumentRecord, chunks: ChunkInput[], audit?: EventDraft, vectors?: NewVectors): void;
  hasChunkHash(workspaceId: string, chunkHash: string): boolean;
  chunksByHash(workspaceId: string, chunkHash: string): ChunkRecord[];
  /** The audit draft, when given, is appended in the same transaction; its payload gets `removed` filled in. */
  forgetSource(workspaceId: string, sourcePath: string, now: number, audit?: EventDraft): RemovedChunk[];
  forgetChunkHash(workspaceId: string, chunkHash: string, now: number, audit?: EventDraft): RemovedChunk[];
  wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): boolean;

  getChunks(workspaceId: string, ids: readonly number[]): ChunkRecord[];
  /** Loads the workspace's search indexes now (the server does this before it reports ready) instead of on first query. */
  warm(workspaceId: string, embedder?: { id: string; dimensions: number }): void;
  searchLexical(workspaceId: string, terms: readonly string[], k: number, filter: ChunkFilter): Scored[];
  /** BM25 of each chunk (0 when absent), all from one index state: a recall scores its candidates in one call. */
  lexicalScores(workspaceId: string, terms: readonly string[], chunkIds: readonly number[]): number[];
  lexicalMaxScore(workspaceId: string, terms: readonly string[]): number;
  searchDense(workspaceId: string, embedderId: string, query: Float32Array, k: number, filter: ChunkFilter): Scored[];
  /** Cosine of the query with each chunk's vector (null when it has none), from one index state. */
  denseSimilarities(workspaceId: string, embedderId: string, query: Float32Array, chunkIds: readonly number[]): (number | null)[];
  chunkVector(workspaceId: string, embedderId: string, dimensions: number, chunkId: number): Float32Array | undefined;

  getEmbeddings(embedderId: string, chunkHashes: readonly string[]): Map<string, Float32Array>;
  putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): void;
  /** Distinct chunk texts that have no vector from this embedder yet (background re-embedding). */
  chunksMissingEmbedding(embedderId: string, limit: number): { chunkHash: string; text: string }[];

  /** Appends events to the workspace's chain in one transaction, computing seq, prev_hash and hash. */
  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): StoredEvent[];
  listEvents(workspaceId: string, query: EventQuery): StoredEvent[];
  /** The last appended event's seq and hash, recorded with every append (detects events cut off the end). */
  eventHead(workspaceId: string): { seq: number; hash: string } | undefined;

  /** Inserts unless the id exists; the side effects are written only with a new record, in the same transaction. */
  insertRecord(workspaceId: string, record: RecordRow, also?: RecordSideEffects): { record: StoredRecord; created: boolean };
  getRecord(workspaceId: string, id: string): StoredRecord | undefined;
  childRecords(workspaceId: string, parentId: string): StoredRecord[];
  listRecords(workspaceId: string, query: RecordQuery): StoredRecord[];
  /** How many records of each kind (and status) the workspace holds. */
  countRecords(workspaceId: string): { kind: RecordKind; status: string | null; childless: boolean; count: number }[];
  /** Compare-and-set of a record's status and body; side effects land only when the status matched. Undefined when it did not. */
  transitionRecord(workspaceId: string, id: string, from: string, to: string, body: unknown, also?: RecordSideEffects): StoredRecord | undefined;
  /** Adds increments to their hour buckets in one transaction (the counter registry flushes in batches). */
  addCounters(rows: readonly CounterIncrement[]): void;
  /** Sums per workspace, layer and counter over the matching buckets. */
  counterTotals(query: CounterQuery): CounterTotal[];
  /** Adds to chunks' served counts in one transaction (chitta writes in batches). */
  addImpressions(rows: readonly ImpressionIncrement[]): void;
  /** Every served count, per workspace smallest first (chitta restores them at start; its per-workspace cap keeps the largest). */
  listImpressions(): ImpressionIncrement[];
  appendCognitiveRecords(records: readonly CognitiveRecord[]): void;
  /** Records of one kind, newest first. */
  listCognitiveRecords(query: CognitiveRecordQuery): StoredCognitiveRecord[];
  /** Stores a process() trace and drops the workspace's older ones beyond its newest `keep`, in one transaction. */
  putTrace(workspaceId: string, traceId: string, at: number, payload: unknown, keep: number): void;
  /** A stored trace's payload; undefined when it is unknown or another workspace's. */
  getTrace(workspaceId: string, traceId: string): unknown;

  close(): Promise<void>;
}
