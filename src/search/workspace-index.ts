// One workspace's in-memory indexes: BM25 over every chunk, a vector index per embedder, and the metadata filters read.
import type { IndexedChunk } from "../ports/search-feed.ts";
import { Bm25Index, ENTRY_BYTES } from "./bm25.ts";
import type { ChunkFilter } from "./types.ts";
import type { VectorIndex } from "./vector-index.ts";

interface ChunkMeta {
  sourcePath: string;
  authoredAt: number;
}

export class WorkspaceIndex {
  readonly bm25 = new Bm25Index();
  readonly meta = new Map<number, ChunkMeta>();
  /** Loaded vector indexes by embedder id. */
  readonly vectors = new Map<string, VectorIndex>();
  /** One string per source path: a document's chunks share it (a store hands every row its own copy; ~4 MB at 100k chunks). */
  private readonly paths = new Map<string, string>();

  /** Bytes held, estimated: the BM25 index, every vector index, and the metadata entries. */
  approxBytes(): number {
    let vectors = 0;
    for (const v of this.vectors.values()) vectors += v.approxBytes();
    return this.bm25.approxBytes() + vectors + (this.meta.size + this.paths.size) * ENTRY_BYTES;
  }

  /** Adds a chunk once (a change replayed twice, or one a page load already saw, changes nothing). */
  add(chunk: IndexedChunk): void {
    if (this.meta.has(chunk.id)) return;
    this.bm25.add(chunk.id, chunk.terms === "" ? [] : chunk.terms.split(" "));
    this.meta.set(chunk.id, { sourcePath: this.path(chunk.sourcePath), authoredAt: chunk.authoredAt });
  }

  remove(chunkId: number): void {
    this.bm25.remove(chunkId);
    this.meta.delete(chunkId);
    for (const vectors of this.vectors.values()) vectors.remove(chunkId);
  }

  /** A predicate over chunk ids for the filter, or undefined when nothing is filtered. */
  accept(filter: ChunkFilter): ((id: number) => boolean) | undefined {
    const { sourcePathPrefix: prefix, since, until } = filter;
    if (prefix === undefined && since === undefined && until === undefined) return undefined;
    return (id) => {
      const m = this.meta.get(id);
      if (!m) return false;
      if (prefix !== undefined && !m.sourcePath.startsWith(prefix)) return false;
      if (since !== undefined && m.authoredAt < since) return false;
      if (until !== undefined && m.authoredAt >= until) return false;
      return true;
    };
  }

  private path(sourcePath: string): string {
    const known = this.paths.get(sourcePath);
    if (known !== undefined) return known;
    this.paths.set(sourcePath, sourcePath);
    return sourcePath;
  }
}
