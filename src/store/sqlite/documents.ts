// Documents and their chunks: atomic replace, forget with tombstones, and row reads.
import type { Db } from "./open.ts";
import type { ChunkInput, ChunkRecord, DocumentRecord, RemovedChunk } from "../../ports/documents.ts";
import { ChunkCache } from "../chunk-cache.ts";
import { CHUNK_COLUMNS, OP_ADD, OP_REMOVE, toChunk, toDocument, toRemoved, type ChunkRow, type DocRow } from "../rows.ts";

export class DocumentRepo {
  private readonly s;
  private readonly hot = new ChunkCache();

  constructor(private readonly db: Db) {
    this.s = {
      getDoc: db.prepare("SELECT * FROM documents WHERE workspace_id = ? AND source_path = ?"),
      // substr() rather than LIKE, so '%' and '_' in a prefix are literal.
      listDocs: db.prepare("SELECT * FROM documents WHERE workspace_id = ? AND substr(source_path, 1, length(?)) = ? ORDER BY source_path"),
      docChunks: db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = ? AND source_path = ? ORDER BY ord`),
      upsertDoc: db.prepare(
        `INSERT INTO documents (workspace_id, source_path, document_hash, kind, authored_at, ingested_at, content) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, source_path) DO UPDATE SET document_hash = excluded.document_hash, kind = excluded.kind,
           authored_at = excluded.authored_at, ingested_at = excluded.ingested_at, content = excluded.content`,
      ),
      deleteDoc: db.prepare("DELETE FROM documents WHERE workspace_id = ? AND source_path = ?"),
      insertChunk: db.prepare(
        `INSERT INTO chunks (workspace_id, source_path, ord, chunk_hash, anchor, start_offset, end_offset, text, terms, authored_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      deleteChunk: db.prepare("DELETE FROM chunks WHERE id = ?"),
      logChange: db.prepare("INSERT INTO changes (workspace_id, chunk_id, op) VALUES (?, ?, ?)"),
      hashChunks: db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = ? AND chunk_hash = ?`),
      chunkById: db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE id = ? AND workspace_id = ?`),
      // CROSS JOIN fixes the loop order: primary-key lookups per id, never a scan of the workspace's chunks.
      chunksByIds: db.prepare(
        `SELECT ${CHUNK_COLUMNS.split(", ").map((c) => `c.${c}`).join(", ")} FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.workspace_id = ?`,
      ),
      anyTombstone: db.prepare("SELECT 1 FROM forgotten WHERE workspace_id = ? LIMIT 1").pluck(),
      hasHash: db.prepare("SELECT 1 FROM chunks WHERE workspace_id = ? AND chunk_hash = ? LIMIT 1").pluck(),
      remaining: db.prepare("SELECT COUNT(*) FROM chunks WHERE workspace_id = ? AND source_path = ?").pluck(),
      tombstone: db.prepare("INSERT INTO forgotten (workspace_id, kind, key, at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at"),
      unTombstone: db.prepare("DELETE FROM forgotten WHERE workspace_id = ? AND kind = ? AND key = ?"),
      isTombstoned: db.prepare("SELECT 1 FROM forgotten WHERE workspace_id = ? AND kind = ? AND key = ?").pluck(),
    };
  }

  get(workspaceId: string, sourcePath: string): DocumentRecord | undefined {
    const r = this.s.getDoc.get(workspaceId, sourcePath) as DocRow | undefined;
    return r && toDocument(r);
  }

  /** Documents whose source_path starts with the prefix ('' = all), by source_path. */
  list(workspaceId: string, prefix = ""): DocumentRecord[] {
    return (this.s.listDocs.all(workspaceId, prefix, prefix) as DocRow[]).map(toDocument);
  }

  chunksOf(workspaceId: string, sourcePath: string): ChunkRecord[] {
    return (this.s.docChunks.all(workspaceId, sourcePath) as ChunkRow[]).map(toChunk);
  }

  chunksByHash(workspaceId: string, chunkHash: string): ChunkRecord[] {
    return (this.s.hashChunks.all(workspaceId, chunkHash) as ChunkRow[]).map(toChunk);
  }

  storedChunkHashes(workspaceId: string, chunkHashes: readonly string[]): Set<string> {
    return new Set(chunkHashes.filter((h) => this.s.hasHash.get(workspaceId, h) !== undefined));
  }

  replace(workspaceId: string, doc: DocumentRecord, chunks: readonly ChunkInput[]): void {
    this.db
      .transaction(() => {
        for (const old of this.chunksOf(workspaceId, doc.sourcePath)) this.removeChunk(workspaceId, old.id);
        this.s.upsertDoc.run(workspaceId, doc.sourcePath, doc.documentHash, doc.kind, doc.authoredAt, doc.ingestedAt, doc.content);
        const tombstones = this.s.anyTombstone.get(workspaceId) !== undefined;
        chunks.forEach((c, ord) => {
          const { lastInsertRowid } = this.s.insertChunk.run(
            workspaceId, doc.sourcePath, ord, c.chunkHash, c.anchor, c.start, c.end, c.text, c.terms, doc.authoredAt,
          );
          this.s.logChange.run(workspaceId, lastInsertRowid, OP_ADD);
          if (tombstones) this.s.unTombstone.run(workspaceId, "chunk_hash", c.chunkHash);
        });
        if (tombstones) this.s.unTombstone.run(workspaceId, "source_path", doc.sourcePath);
      })
      .immediate();
  }

  forgetSource(workspaceId: string, sourcePath: string, now: number): RemovedChunk[] {
    return this.db
      .transaction(() => {
        const removed = this.chunksOf(workspaceId, sourcePath);
        for (const c of removed) this.removeChunk(workspaceId, c.id);
        this.s.deleteDoc.run(workspaceId, sourcePath);
        if (removed.length > 0 || this.s.isTombstoned.get(workspaceId, "source_path", sourcePath) !== undefined)
          this.s.tombstone.run(workspaceId, "source_path", sourcePath, now);
        return removed.map(toRemoved);
      })
      .immediate();
  }

  /** Removes every chunk with this hash; a source left without chunks is forgotten as a whole. */
  forgetChunkHash(workspaceId: string, chunkHash: string, now: number): RemovedChunk[] {
    return this.db
      .transaction(() => {
        const removed = this.chunksByHash(workspaceId, chunkHash);
        for (const c of removed) this.removeChunk(workspaceId, c.id);
        for (const path of new Set(removed.map((c) => c.sourcePath)))
          if (this.s.remaining.get(workspaceId, path) === 0) {
            this.s.deleteDoc.run(workspaceId, path);
            this.s.tombstone.run(workspaceId, "source_path", path, now);
          }
        if (removed.length > 0) this.s.tombstone.run(workspaceId, "chunk_hash", chunkHash, now);
        return removed.map(toRemoved);
      })
      .immediate();
  }

  wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): boolean {
    const [kind, value] = key.sourcePath !== undefined ? ["source_path", key.sourcePath] : ["chunk_hash", key.chunkHash ?? ""];
    return this.s.isTombstoned.get(workspaceId, kind, value) !== undefined;
  }

  /**
   * Rows the cache does not hold are read in one prepared statement over a JSON id list: no per-call prepare, and all
   * from one snapshot (per-id reads could see half a replace). A row never changes and its id is never reused
   * (AUTOINCREMENT), so a cached row is exact; rows this process removes leave the cache at once, and the ids a search
   * asks for come from an index that has already dropped what other processes removed.
   */
  getChunks(workspaceId: string, ids: readonly number[]): ChunkRecord[] {
    const missing = ids.filter((id) => !this.hot.has(id));
    if (missing.length === 1) {
      const row = this.s.chunkById.get(missing[0], workspaceId) as ChunkRow | undefined;
      if (row) this.hot.put(row.id, workspaceId, toChunk(row));
    } else if (missing.length > 1)
      for (const row of this.s.chunksByIds.all(JSON.stringify(missing), workspaceId) as ChunkRow[]) this.hot.put(row.id, workspaceId, toChunk(row));
    return ids.flatMap((id) => {
      const chunk = this.hot.get(id, workspaceId);
      return chunk ? [chunk] : [];
    });
  }

  private removeChunk(workspaceId: string, id: number): void {
    this.hot.delete(id);
    this.s.deleteChunk.run(id);
    this.s.logChange.run(workspaceId, id, OP_REMOVE);
  }
}
