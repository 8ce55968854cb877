// Documents and their chunks in PostgreSQL: atomic replace, forget with tombstones, and row reads.
import type { ChunkInput, ChunkRecord, DocumentRecord, RemovedChunk } from "../../ports/documents.ts";
import { ChunkCache } from "../chunk-cache.ts";
import { CHUNK_COLUMNS, OP_ADD, OP_REMOVE, toChunk, toDocument, toRemoved, type ChunkRow, type DocRow } from "../rows.ts";
import { lock, type Conn, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import type pg from "pg";

export class DocumentRepo {
  private readonly hot = new ChunkCache();

  constructor(private readonly db: Db) {}

  async get(workspaceId: string, sourcePath: string, c: Conn = this.db): Promise<DocumentRecord | undefined> {
    const { rows } = await c.query<DocRow>({ name: "doc_get", text: "SELECT * FROM documents WHERE workspace_id = $1 AND source_path = $2", values: [workspaceId, sourcePath] });
    return rows[0] && toDocument(rows[0]);
  }

  /** Documents whose source_path starts with the prefix ('' = all), by source_path (byte order, as on SQLite). */
  async list(workspaceId: string, prefix = ""): Promise<DocumentRecord[]> {
    const { rows } = await this.db.query<DocRow>(
      `SELECT * FROM documents WHERE workspace_id = $1 AND left(source_path, length($2)) = $2 ORDER BY source_path`,
      [workspaceId, prefix],
    );
    return rows.map(toDocument);
  }

  async chunksOf(workspaceId: string, sourcePath: string, c: Conn = this.db): Promise<ChunkRecord[]> {
    const { rows } = await c.query<ChunkRow>({
      name: "doc_chunks",
      text: `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = $1 AND source_path = $2 ORDER BY ord`,
      values: [workspaceId, sourcePath],
    });
    return rows.map(toChunk);
  }

  async chunksByHash(workspaceId: string, chunkHash: string, c: Conn = this.db): Promise<ChunkRecord[]> {
    const { rows } = await c.query<ChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = $1 AND chunk_hash = $2 ORDER BY id`, [workspaceId, chunkHash]);
    return rows.map(toChunk);
  }

  async storedChunkHashes(workspaceId: string, chunkHashes: readonly string[]): Promise<Set<string>> {
    if (chunkHashes.length === 0) return new Set();
    const { rows } = await this.db.query<{ chunk_hash: string }>({
      name: "doc_stored_hashes",
      text: "SELECT DISTINCT chunk_hash FROM chunks WHERE chunk_hash = ANY($2::text[]) AND workspace_id = $1",
      values: [workspaceId, chunkHashes],
    });
    return new Set(rows.map((r) => r.chunk_hash));
  }

  /**
   * Inside the caller's transaction: the document and its cleared tombstones first, then, under LOCK.changes (so the
   * change log's seqs follow commit order), its old chunks out and the new ones in with their change rows, in one
   * statement, so the lock is held for one round trip and the commit.
   */
  async replace(c: pg.PoolClient, workspaceId: string, doc: DocumentRecord, chunks: readonly ChunkInput[]): Promise<void> {
    await c.query(
      `INSERT INTO documents (workspace_id, source_path, document_hash, kind, authored_at, ingested_at, content) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (workspace_id, source_path) DO UPDATE SET document_hash = excluded.document_hash, kind = excluded.kind,
         authored_at = excluded.authored_at, ingested_at = excluded.ingested_at, content = excluded.content`,
      [workspaceId, doc.sourcePath, doc.documentHash, doc.kind, doc.authoredAt, doc.ingestedAt, doc.content],
    );
    const hashes = [...new Set(chunks.map((k) => k.chunkHash))];
    await c.query("DELETE FROM forgotten WHERE workspace_id = $1 AND ((kind = 'chunk_hash' AND key = ANY($2::text[])) OR (kind = 'source_path' AND key = $3))", [
      workspaceId, hashes, doc.sourcePath,
    ]);
    await lock(c, LOCK.changes);
    // The delete and the insert see the same snapshot: only the old rows go. Removals are logged before additions.
    const { rows } = await c.query<{ id: number }>(
      `WITH gone AS (DELETE FROM chunks WHERE workspace_id = $1 AND source_path = $2 RETURNING id),
       added AS (
         INSERT INTO chunks (workspace_id, source_path, ord, chunk_hash, anchor, start_offset, end_offset, text, terms, authored_at)
         SELECT $1, $2, t.ord, t.chunk_hash, t.anchor, t.start_offset, t.end_offset, t.text, t.terms, $3
         FROM unnest($4::int[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::text[])
           AS t(ord, chunk_hash, anchor, start_offset, end_offset, text, terms)
         ORDER BY t.ord
         RETURNING id),
       logged AS (
         INSERT INTO changes (workspace_id, chunk_id, op)
         SELECT $1, id, op FROM (SELECT id, ${OP_REMOVE} AS op FROM gone UNION ALL SELECT id, ${OP_ADD} FROM added) AS x ORDER BY op, id)
       SELECT id FROM gone`,
      [
        workspaceId, doc.sourcePath, doc.authoredAt,
        chunks.map((_, i) => i), chunks.map((k) => k.chunkHash), chunks.map((k) => k.anchor), chunks.map((k) => k.start),
        chunks.map((k) => k.end), chunks.map((k) => k.text), chunks.map((k) => k.terms),
      ],
    );
    for (const r of rows) this.hot.delete(r.id);
  }

  async forgetSource(c: pg.PoolClient, workspaceId: string, sourcePath: string, now: number): Promise<RemovedChunk[]> {
    const removed = await this.chunksOf(workspaceId, sourcePath, c);
    await this.removeChunks(c, workspaceId, removed);
    await c.query("DELETE FROM documents WHERE workspace_id = $1 AND source_path = $2", [workspaceId, sourcePath]);
    if (removed.length > 0 || (await this.tombstoned(workspaceId, "source_path", sourcePath, c))) await this.tombstone(c, workspaceId, "source_path", sourcePath, now);
    return removed.map(toRemoved);
  }

  /** Removes every chunk with this hash; a source left without chunks is forgotten as a whole. */
  async forgetChunkHash(c: pg.PoolClient, workspaceId: string, chunkHash: string, now: number): Promise<RemovedChunk[]> {
    const removed = await this.chunksByHash(workspaceId, chunkHash, c);
    await this.removeChunks(c, workspaceId, removed);
    for (const path of new Set(removed.map((k) => k.sourcePath))) {
      const { rows } = await c.query("SELECT 1 FROM chunks WHERE workspace_id = $1 AND source_path = $2 LIMIT 1", [workspaceId, path]);
      if (rows.length > 0) continue;
      await c.query("DELETE FROM documents WHERE workspace_id = $1 AND source_path = $2", [workspaceId, path]);
      await this.tombstone(c, workspaceId, "source_path", path, now);
    }
    if (removed.length > 0) await this.tombstone(c, workspaceId, "chunk_hash", chunkHash, now);
    return removed.map(toRemoved);
  }

  async wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }, c: Conn = this.db): Promise<boolean> {
    const [kind, value] = key.sourcePath !== undefined ? ["source_path", key.sourcePath] : ["chunk_hash", key.chunkHash ?? ""];
    return this.tombstoned(workspaceId, kind, value, c);
  }

  /** Rows the cache lacks in one statement (one snapshot); see ChunkCache for why a cached row stays exact. */
  async getChunks(workspaceId: string, ids: readonly number[]): Promise<ChunkRecord[]> {
    const missing = ids.filter((id) => !this.hot.has(id));
    if (missing.length > 0) {
      const { rows } = await this.db.query<ChunkRow>({
        name: "chunks_by_ids",
        text: `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE id = ANY($1::bigint[]) AND workspace_id = $2`,
        values: [missing, workspaceId],
      });
      for (const row of rows) this.hot.put(row.id, workspaceId, toChunk(row));
    }
    return ids.flatMap((id) => {
      const chunk = this.hot.get(id, workspaceId);
      return chunk ? [chunk] : [];
    });
  }

  private async tombstoned(workspaceId: string, kind: string, key: string, c: Conn): Promise<boolean> {
    const { rows } = await c.query("SELECT 1 FROM forgotten WHERE workspace_id = $1 AND kind = $2 AND key = $3", [workspaceId, kind, key]);
    return rows.length > 0;
  }

  private async tombstone(c: pg.PoolClient, workspaceId: string, kind: string, key: string, at: number): Promise<void> {
    await c.query("INSERT INTO forgotten (workspace_id, kind, key, at) VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id, kind, key) DO UPDATE SET at = excluded.at", [
      workspaceId, kind, key, at,
    ]);
  }

  private async removeChunks(c: pg.PoolClient, workspaceId: string, chunks: readonly ChunkRecord[]): Promise<void> {
    if (chunks.length === 0) return;
    for (const k of chunks) this.hot.delete(k.id);
    await c.query(
      `WITH gone AS (DELETE FROM chunks WHERE id = ANY($2::bigint[]) RETURNING id)
       INSERT INTO changes (workspace_id, chunk_id, op) SELECT $1, id, ${OP_REMOVE} FROM gone ORDER BY id`,
      [workspaceId, chunks.map((k) => k.id)],
    );
  }
}
