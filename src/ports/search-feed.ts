// What a store hands the search module (src/search/): the chunks to index and the log of changes to catch up on.
import type { NewVectors } from "./documents.ts";

/** A stored chunk as the in-memory indexes hold it: no text, only what scoring and filters read. */
export interface IndexedChunk {
  id: number;
  sourcePath: string;
  /** Its BM25 terms, space-separated (as ingest stored them). */
  terms: string;
  authoredAt: number;
  chunkHash: string;
  /** The start of its text (at most OPENING_CHARS): whether it reads as a conversation turn ("Alice: ..."). */
  opening: string;
}

/** How much of a chunk's text IndexedChunk.opening carries: enough for a speaker label and a timestamp. */
export const OPENING_CHARS = 120;

/** One committed change to a workspace's chunks, in commit order. */
export interface ChunkChange {
  seq: number;
  workspaceId: string;
  chunkId: number;
  removed: boolean;
  /**
   * The chunk as added (or announced again when its vector arrived); null when removed. Read from the log, also null
   * when removed again since.
   */
  chunk: IndexedChunk | null;
}

/** Changes this process committed, in seq order, with the vectors written with them. */
export interface CommittedChanges {
  changes: ChunkChange[];
  vectors: readonly NewVectors[];
}

/** Rows of one page and where the next starts (null after the last); the cursor is the adapter's own keyset. */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** Vectors of newly added chunks are read from the document store by hash (DocumentStore.getEmbeddings). */
export interface SearchFeed {
  /**
   * Cheap and synchronous, asked before every search: a number that grows whenever a write may have committed since
   * the last call (this process's or another's), so an unchanged one means the indexes are current without a look,
   * and a catch-up that read it at least as high as a request's saw every commit before that request.
   */
  changeMarker(): number;
  /**
   * Hands `listener` the changes this process commits, once committed, so an index can apply them without reading
   * them back. The log stays the truth: a store may announce some changes or none, never one it did not commit. The
   * listener may be held weakly: its owner keeps a reference to it for as long as it listens.
   */
  onCommitted?(listener: (committed: CommittedChanges) => void): void;
  /** The seq of the latest change (a fresh reader starts after it). */
  latestChange(): Promise<number>;
  /** Changes after `seq`, oldest first, at most `limit`. */
  changesSince(seq: number, limit: number): Promise<ChunkChange[]>;
  /** One page of the workspace's chunks in the adapter's order, from `cursor` (null: the first page). */
  indexedChunks(workspaceId: string, cursor: string | null, limit: number): Promise<Page<IndexedChunk>>;
  /** How many of the workspace's chunks have a vector from this embedder (sizes the index before it loads). */
  vectorCount(workspaceId: string, embedderId: string): Promise<number>;
  /** One page of the workspace's chunk vectors from this embedder, from `cursor` (null: the first page). */
  chunkVectors(
    workspaceId: string,
    embedderId: string,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: number; vector: Float32Array }>>;
}
