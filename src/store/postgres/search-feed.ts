// The SearchFeed of the PostgreSQL store: chunk pages, vector pages and the changes log, read by the search engine.
// Another replica's commit is not announced to this process, so the marker moves on every call: each search first asks
// the log for changes after the last seq it applied (one indexed query), which is what makes an acknowledged write on
// any replica visible to the next request on every other.
import type { ChunkChange, CommittedChanges, IndexedChunk, Page, SearchFeed } from "../../ports/search-feed.ts";
import { CommitAnnouncer, type LoggedReplace } from "../committed-changes.ts";
import { fromBlob } from "../vector-blob.ts";
import { after, nextCursor, opening, toChange, toIndexed, type ChangeRow, type IndexedRow } from "../rows.ts";
import type { Db } from "./open.ts";

export class SearchFeedRepo implements SearchFeed {
  private marker = 0;
  private readonly announcer = new CommitAnnouncer();

  constructor(private readonly db: Db) {}

  onCommitted(listener: (committed: CommittedChanges) => void): void {
    this.announcer.onCommitted(listener);
  }

  /** The replaces a transaction of this process committed. */
  committed(replaces: readonly LoggedReplace[]): void {
    this.announcer.committed(replaces);
  }

  changeMarker(): number {
    return ++this.marker;
  }

  async latestChange(): Promise<number> {
    const { rows } = await this.db.query<{ seq: number }>("SELECT COALESCE(MAX(seq), 0)::bigint AS seq FROM changes");
    return rows[0]!.seq;
  }

  async changesSince(seq: number, limit: number): Promise<ChunkChange[]> {
    const { rows } = await this.db.query<ChangeRow>({
      name: "changes_since",
      text: `SELECT c.seq, c.workspace_id, c.chunk_id, c.op, k.source_path, k.terms, k.authored_at, k.chunk_hash, ${opening("k.")}
             FROM changes c LEFT JOIN chunks k ON k.id = c.chunk_id WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
      values: [seq, limit],
    });
    return rows.map(toChange);
  }

  /** Keyset pages by (source_path in byte order, id), the chunks_by_source index's order. */
  async indexedChunks(workspaceId: string, cursor: string | null, limit: number): Promise<Page<IndexedChunk>> {
    const [path, id] = after(cursor);
    const { rows } = await this.db.query<IndexedRow>(
      `SELECT id, source_path, terms, authored_at, chunk_hash, ${opening("")} FROM chunks WHERE workspace_id = $1 AND (source_path, id) > ($2, $3)
       ORDER BY source_path, id LIMIT $4`,
      [workspaceId, path, id, limit],
    );
    return { rows: rows.map(toIndexed), next: nextCursor(rows, limit) };
  }

  async vectorCount(workspaceId: string, embedderId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT COUNT(*)::bigint AS n FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = $1 WHERE k.workspace_id = $2",
      [embedderId, workspaceId],
    );
    return rows[0]!.n;
  }

  async chunkVectors(
    workspaceId: string,
    embedderId: string,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: number; vector: Float32Array }>> {
    const [path, id] = after(cursor);
    const { rows } = await this.db.query<{ id: number; source_path: string; vector: Buffer }>(
      `SELECT k.id, k.source_path, e.vector FROM chunks k JOIN embeddings e ON e.chunk_hash = k.chunk_hash AND e.embedder_id = $1
       WHERE k.workspace_id = $2 AND (k.source_path, k.id) > ($3, $4) ORDER BY k.source_path, k.id LIMIT $5`,
      [embedderId, workspaceId, path, id, limit],
    );
    return { rows: rows.map((r) => ({ id: r.id, vector: fromBlob(r.vector) })), next: nextCursor(rows, limit) };
  }
}
