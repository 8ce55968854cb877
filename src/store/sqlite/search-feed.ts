// The SearchFeed of the SQLite store: chunk pages, vector pages and the changes log, read by the search engine.
import type { ChunkChange, IndexedChunk, Page } from "../../ports/search-feed.ts";
import type { Db } from "./open.ts";
import { OP_ADD } from "./schema.ts";
import { fromBlob } from "./vector-blob.ts";

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
  chunk_hash: string | null;
}

const toIndexed = (r: ChunkRow): IndexedChunk => ({ id: r.id, sourcePath: r.source_path, terms: r.terms, authoredAt: r.authored_at, chunkHash: r.chunk_hash });

export class SearchFeedRepo {
  private readonly s;
  private marker = 0;
  private dataVersion = -1;

  constructor(db: Db) {
    // Prepared once: db.pragma() re-prepares on every call, and the engine asks before every search.
    this.s = {
      dataVersion: db.prepare("PRAGMA data_version").pluck(),
      maxSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) FROM changes").pluck(),
      // Keyset pages in the order of the chunks_by_source index (workspace_id, source_path, rowid): no sort per page.
      chunks: db.prepare(
        "SELECT id, source_path, terms, authored_at, chunk_hash FROM chunks WHERE workspace_id = ? AND (source_path, id) > (?, ?) ORDER BY source_path, id LIMIT ?",
      ),
      changes: db.prepare(
        `SELECT c.seq, c.workspace_id, c.chunk_id, c.op, k.source_path, k.terms, k.authored_at, k.chunk_hash
         FROM changes c LEFT JOIN chunks k ON k.id = c.chunk_id WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
      ),
      vectors: db.prepare(
        `SELECT k.id, k.source_path, e.vector FROM chunks k CROSS JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ?
         WHERE k.workspace_id = ? AND (k.source_path, k.id) > (?, ?) ORDER BY k.source_path, k.id LIMIT ?`,
      ),
      vectorCount: db.prepare("SELECT COUNT(*) FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ? WHERE k.workspace_id = ?").pluck(),
    };
  }

  /** Moves on every own write (wrote()) and whenever another connection committed (SQLite's data_version). */
  changeMarker(): number {
    const version = this.s.dataVersion.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.marker++;
    }
    return this.marker;
  }

  /** Own commits do not move data_version, so every write transaction of this connection calls this. */
  wrote(): void {
    this.marker++;
  }

  latestChange = (): number => this.s.maxSeq.get() as number;

  changesSince(seq: number, limit: number): ChunkChange[] {
    return (this.s.changes.all(seq, limit) as ChangeRow[]).map((r) => ({
      seq: r.seq,
      workspaceId: r.workspace_id,
      chunkId: r.chunk_id,
      removed: r.op !== OP_ADD,
      chunk: r.op === OP_ADD && r.terms !== null ? toIndexed({ id: r.chunk_id, source_path: r.source_path!, terms: r.terms, authored_at: r.authored_at!, chunk_hash: r.chunk_hash! }) : null,
    }));
  }

  indexedChunks(workspaceId: string, cursor: string | null, limit: number): Page<IndexedChunk> {
    const rows = this.s.chunks.all(workspaceId, ...after(cursor), limit) as ChunkRow[];
    return { rows: rows.map(toIndexed), next: nextCursor(rows, limit) };
  }

  vectorCount = (workspaceId: string, embedderId: string): number => this.s.vectorCount.get(embedderId, workspaceId) as number;

  chunkVectors(workspaceId: string, embedderId: string, cursor: string | null, limit: number): Page<{ id: number; vector: Float32Array }> {
    const rows = this.s.vectors.all(embedderId, workspaceId, ...after(cursor), limit) as { id: number; source_path: string; vector: Buffer }[];
    return { rows: rows.map((r) => ({ id: r.id, vector: fromBlob(r.vector) })), next: nextCursor(rows, limit) };
  }
}

/** A page cursor is the last row's (source_path, id); the first page starts before every row. */
const after = (cursor: string | null): [string, number] => (cursor ? (JSON.parse(cursor) as [string, number]) : ["", 0]);
const nextCursor = (rows: readonly { id: number; source_path: string }[], limit: number): string | null =>
  rows.length < limit ? null : JSON.stringify([rows.at(-1)!.source_path, rows.at(-1)!.id]);
