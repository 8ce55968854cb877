// Per-workspace in-memory BM25 and vector indexes, loaded lazily and kept current by replaying the changes log.
/* eslint-disable no-restricted-imports -- the search engine moves out of the store in the next step */
import type { Db } from "./open.ts";
import { Bm25Index } from "../../search/bm25.ts";
import { VectorIndex } from "../../search/vector-index.ts";
import type { ChunkFilter } from "../../ports.ts";
import { fromBlob } from "../../embed/vector.ts";
import { OP_ADD } from "./schema.ts";

interface ChunkMeta {
  sourcePath: string;
  authoredAt: number;
}

export class WorkspaceIndex {
  readonly bm25 = new Bm25Index();
  readonly meta = new Map<number, ChunkMeta>();
  /** One string per source path: a document's chunks share it (SQLite hands every row its own copy; ~4 MB at 100k chunks). */
  private readonly paths = new Map<string, string>();

  /** The shared copy of a source path. */
  path(sourcePath: string): string {
    const known = this.paths.get(sourcePath);
    if (known !== undefined) return known;
    this.paths.set(sourcePath, sourcePath);
    return sourcePath;
  }
  readonly vectors = new Map<string, VectorIndex>();

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
}

/** Owns the indexes of every loaded workspace; `sync` is cheap when nothing changed (PRAGMA data_version). */
export class LiveIndexes {
  private readonly workspaces = new Map<string, WorkspaceIndex>();
  private lastSeq = 0;
  private dataVersion = -1;
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      // Prepared once: db.pragma() re-prepares on every call, and recall asks several times per query.
      dataVersion: db.prepare("PRAGMA data_version").pluck(),
      maxSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM changes"),
      allChunks: db.prepare("SELECT id, source_path, terms, authored_at, chunk_hash FROM chunks WHERE workspace_id = ?"),
      changes: db.prepare(
        `SELECT c.seq, c.workspace_id, c.chunk_id, c.op, k.source_path, k.terms, k.authored_at, k.chunk_hash
         FROM changes c LEFT JOIN chunks k ON k.id = c.chunk_id WHERE c.seq > ? ORDER BY c.seq`,
      ),
      workspaceVectors: db.prepare(
        "SELECT k.id, e.vector FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ? WHERE k.workspace_id = ?",
      ),
      vectorCount: db
        .prepare("SELECT COUNT(*) FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ? WHERE k.workspace_id = ?")
        .pluck(),
      vector: db.prepare("SELECT vector FROM embeddings WHERE embedder_id = ? AND chunk_hash = ?").pluck(),
    };
  }

  /** The workspace's index, current with every committed write of any process. */
  get(workspaceId: string): WorkspaceIndex {
    this.sync();
    let index = this.workspaces.get(workspaceId);
    if (!index) {
      index = this.load(workspaceId);
      this.workspaces.set(workspaceId, index);
    }
    return index;
  }

  /** The workspace's vector index for one embedder, filled from stored embeddings on first use. */
  vectors(workspaceId: string, embedderId: string, dimensions: number): VectorIndex {
    const ws = this.get(workspaceId);
    let index = ws.vectors.get(embedderId);
    if (!index) {
      const expected = this.stmts.vectorCount.get(embedderId, workspaceId) as number;
      index = new VectorIndex(dimensions, expected + 1024);
      for (const row of this.stmts.workspaceVectors.iterate(embedderId, workspaceId) as Iterable<{ id: number; vector: Buffer }>)
        index.add(row.id, fromBlob(row.vector));
      ws.vectors.set(embedderId, index);
    }
    return index;
  }

  private load(workspaceId: string): WorkspaceIndex {
    const index = new WorkspaceIndex();
    for (const row of this.stmts.allChunks.iterate(workspaceId) as Iterable<ChunkRow>) addChunk(index, row);
    return index;
  }

  /** Replays changes committed since the last look; own writes arrive the same way as other processes'. */
  sync(): void {
    const version = this.stmts.dataVersion.get() as number;
    if (version === this.dataVersion && this.lastSeq > 0) return;
    this.dataVersion = version;
    if (this.workspaces.size === 0) {
      this.lastSeq = (this.stmts.maxSeq.get() as { seq: number }).seq;
      return;
    }
    for (const row of this.stmts.changes.iterate(this.lastSeq) as Iterable<ChangeRow>) {
      this.lastSeq = row.seq;
      const index = this.workspaces.get(row.workspace_id);
      if (!index) continue;
      if (row.op === OP_ADD && row.terms !== null) {
        addChunk(index, { ...row, id: row.chunk_id } as ChunkRow);
        for (const [embedderId, vectors] of index.vectors) {
          const blob = this.stmts.vector.get(embedderId, row.chunk_hash) as Buffer | undefined;
          if (blob) vectors.add(row.chunk_id, fromBlob(blob));
        }
      } else if (row.op !== OP_ADD) {
        index.bm25.remove(row.chunk_id);
        index.meta.delete(row.chunk_id);
        for (const vectors of index.vectors.values()) vectors.remove(row.chunk_id);
      }
    }
  }

  /** Forces the next `get` to look at the changes log (own writes do not bump data_version). */
  invalidate(): void {
    this.dataVersion = -1;
  }
}

interface ChunkRow {
  id: number;
  source_path: string;
  terms: string;
  authored_at: number;
  chunk_hash: string;
}

interface ChangeRow {
  seq: number;
  workspace_id: string;
  chunk_id: number;
  op: number;
  source_path: string | null;
  terms: string | null;
  authored_at: number | null;
  chunk_hash: string;
}

function addChunk(index: WorkspaceIndex, row: ChunkRow): void {
  index.bm25.add(row.id, row.terms === "" ? [] : row.terms.split(" "));
  index.meta.set(row.id, { sourcePath: index.path(row.source_path), authoredAt: row.authored_at });
}
