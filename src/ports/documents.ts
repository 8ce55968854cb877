// The vault: documents, their chunks and the chunks' vectors, every call scoped by workspace id.
import type { DocumentKind } from "../domain/text/chunk.ts";
import type { EventDraft } from "./audit-log.ts";

export interface DocumentRecord {
  sourcePath: string;
  documentHash: string;
  kind: DocumentKind;
  /** Event time: when what it says happened or was said (the API's occurred_at; stored as authored_at). */
  authoredAt: number;
  ingestedAt: number;
  content: string;
  /** The analysis its chunks' terms were made by (ANALYSIS_VERSION); an older one is re-analysed on the next ingest. */
  analysis: number;
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
  /** The chunk's event time (the API's occurred_at): its document's, or a dated line's above it. */
  authoredAt: number;
  /** True when nothing gave its event time (no occurred_at, front matter date or dated line): it is the ingest time. */
  undated?: boolean | undefined;
}

/** A chunk ready to store: its BM25 terms and (optionally) its vector are computed before the write transaction. */
export interface ChunkInput {
  chunkHash: string;
  anchor: string;
  start: number;
  end: number;
  text: string;
  /** Its BM25 terms, space-separated as stored (one string crosses threads for the cost of a few, not one per word). */
  terms: string;
  /** Its own event time when the text dates it (a session header above it); else the document's. */
  occurredAt?: number | undefined;
  /** Nothing gave it an event time: relative words in it are not resolved against the ingest time. */
  undated?: boolean | undefined;
}

/** Vectors computed for an ingest, stored in the same transaction as its chunks. */
export interface NewVectors {
  embedderId: string;
  byHash: ReadonlyMap<string, Float32Array>;
}

export interface RemovedChunk {
  sourcePath: string;
  chunkHash: string;
  anchor: string;
}

/** A document write prepared outside the transaction (chunks tokenized, vectors computed) and committed inside it. */
export interface DocumentWrite {
  doc: DocumentRecord;
  chunks: ChunkInput[];
  vectors?: NewVectors | undefined;
}

export interface DocumentStore {
  getDocument(workspaceId: string, sourcePath: string): Promise<DocumentRecord | undefined>;
  documentChunks(workspaceId: string, sourcePath: string): Promise<ChunkRecord[]>;
  /** The workspace's documents (content included) whose source_path starts with the prefix, by source_path. */
  listDocuments(workspaceId: string, sourcePathPrefix?: string): Promise<DocumentRecord[]>;
  /** Replaces a source's chunks in one transaction: readers see the old version or the new, never both. */
  replaceDocument(
    workspaceId: string,
    doc: DocumentRecord,
    chunks: ChunkInput[],
    audit?: EventDraft,
    vectors?: NewVectors,
  ): Promise<void>;
  /** Which of these chunk hashes the workspace holds (one look-up for a whole document's chunks). */
  storedChunkHashes(workspaceId: string, chunkHashes: readonly string[]): Promise<Set<string>>;
  chunksByHash(workspaceId: string, chunkHash: string): Promise<ChunkRecord[]>;
  /** The audit draft, when given, is appended in the same transaction; its payload gets `removed` filled in. */
  forgetSource(workspaceId: string, sourcePath: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]>;
  forgetChunkHash(workspaceId: string, chunkHash: string, now: number, audit?: EventDraft): Promise<RemovedChunk[]>;
  wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): Promise<boolean>;
  /** Stored chunks by id (ids the search index returned); ids no longer stored are left out. */
  getChunks(workspaceId: string, ids: readonly number[]): Promise<ChunkRecord[]>;

  getEmbeddings(embedderId: string, chunkHashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Stores vectors for chunks already stored, and announces those chunks again so loaded vector indexes pick them up. */
  putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void>;
  /** Distinct chunk texts that have no vector from this embedder yet (background re-embedding). */
  chunksMissingEmbedding(embedderId: string, limit: number): Promise<{ chunkHash: string; text: string }[]>;
}
