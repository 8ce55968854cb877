// The SearchFeed of the SQLite store: chunk pages, vector pages and the changes log, read by the search engine.
import type { ChunkChange, CommittedChanges, IndexedChunk, Page, SearchFeed } from "../../ports/search-feed.ts";
import { CommitAnnouncer, type LoggedReplace } from "../committed-changes.ts";
import type { Db } from "./open.ts";
import { after, nextCursor, opening, toChange, toIndexed, type ChangeRow, type IndexedRow } from "../rows.ts";
import { fromBlob } from "../vector-blob.ts";

export class SearchFeedRepo implements SearchFeed {
  private readonly s;
  private marker = 0;
  private dataVersion = -1;
  private readonly announcer = new CommitAnnouncer();

  constructor(db: Db) {
    // Prepared once: db.pragma() re-prepares on every call, and the engine asks before every search.
    this.s = {
      dataVersion: db.prepare("PRAGMA data_version").pluck(),
      maxSeq: db.prepare("SELECT COALESCE(MAX(seq), 0) FROM changes").pluck(),
      // Keyset pages in the order of the chunks_by_source index (workspace_id, source_path, rowid): no sort per page.
      chunks: db.prepare(
        `SELECT id, source_path, terms, authored_at, chunk_hash, ${opening("")} FROM chunks WHERE workspace_id = ? AND (source_path, id) > (?, ?) ORDER BY source_path, id LIMIT ?`,
      ),
      changes: db.prepare(
        `SELECT c.seq, c.workspace_id, c.chunk_id, c.op, k.source_path, k.terms, k.authored_at, k.chunk_hash, ${opening("k.")}
         FROM changes c LEFT JOIN chunks k ON k.id = c.chunk_id WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
      ),
      vectors: db.prepare(
        `SELECT k.id, k.source_path, e.vector FROM chunks k CROSS JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ?
         WHERE k.workspace_id = ? AND (k.source_path, k.id) > (?, ?) ORDER BY k.source_path, k.id LIMIT ?`,
      ),
      vectorCount: db
        .prepare(
          "SELECT COUNT(*) FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = ? WHERE k.workspace_id = ?",
        )
        .pluck(),
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

  onCommitted(listener: (committed: CommittedChanges) => void): void {
    this.announcer.onCommitted(listener);
  }

  /** The replaces a transaction of this process committed (on this connection or the writer thread's). */
  committed(replaces: readonly LoggedReplace[]): void {
    this.announcer.committed(replaces);
  }

  async latestChange(): Promise<number> {
    return this.s.maxSeq.get() as number;
  }

  async changesSince(seq: number, limit: number): Promise<ChunkChange[]> {
    if ((this.s.maxSeq.get() as number) <= seq) return [];
    return (this.s.changes.all(seq, limit) as ChangeRow[]).map(toChange);
  }

  async indexedChunks(workspaceId: string, cursor: string | null, limit: number): Promise<Page<IndexedChunk>> {
    const rows = this.s.chunks.all(workspaceId, ...after(cursor), limit) as IndexedRow[];
    return { rows: rows.map(toIndexed), next: nextCursor(rows, limit) };
  }

  async vectorCount(workspaceId: string, embedderId: string): Promise<number> {
    return this.s.vectorCount.get(embedderId, workspaceId) as number;
  }

  async chunkVectors(
    workspaceId: string,
    embedderId: string,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: number; vector: Float32Array }>> {
    const rows = this.s.vectors.all(embedderId, workspaceId, ...after(cursor), limit) as {
      id: number;
      source_path: string;
      vector: Buffer;
    }[];
    return { rows: rows.map((r) => ({ id: r.id, vector: fromBlob(r.vector) })), next: nextCursor(rows, limit) };
  }
}
