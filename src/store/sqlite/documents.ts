// Documents, their chunks and the chunks' vectors in SQLite: atomic replace (on the writer thread when there is one),
// forget with tombstones, and row reads.
import type { Db } from "./open.ts";
import type { EventDraft } from "../../ports/audit-log.ts";
import type {
  ChunkInput,
  ChunkRecord,
  DocumentRecord,
  DocumentStore,
  DocumentWrite,
  NewVectors,
  RemovedChunk,
} from "../../ports/documents.ts";
import { ChunkCache } from "../chunk-cache.ts";
import {
  CHUNK_COLUMNS,
  OP_ADD,
  OP_REMOVE,
  toChunk,
  toDocument,
  toRemoved,
  type ChunkRow,
  type DocRow,
} from "../rows.ts";
import { fromBlob, toBlob } from "../vector-blob.ts";
import { applySideEffects, forget } from "../write-steps.ts";
import type { SqliteTransactions } from "./transactions.ts";
import type { SqliteWriter } from "./writer.ts";

export class DocumentRepo implements DocumentStore {
  private readonly s;
  private readonly hot = new ChunkCache();

  constructor(
    private readonly db: Db,
    private readonly tx: SqliteTransactions,
    private readonly writer: SqliteWriter | null = null,
  ) {
    this.s = {
      getDoc: db.prepare("SELECT * FROM documents WHERE workspace_id = ? AND source_path = ?"),
      // substr() rather than LIKE, so '%' and '_' in a prefix are literal.
      listDocs: db.prepare(
        "SELECT * FROM documents WHERE workspace_id = ? AND substr(source_path, 1, length(?)) = ? ORDER BY source_path",
      ),
      docChunks: db.prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = ? AND source_path = ? ORDER BY ord`,
      ),
      upsertDoc: db.prepare(
        `INSERT INTO documents (workspace_id, source_path, document_hash, kind, authored_at, ingested_at, content, analysis) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, source_path) DO UPDATE SET document_hash = excluded.document_hash, kind = excluded.kind,
           authored_at = excluded.authored_at, ingested_at = excluded.ingested_at, content = excluded.content, analysis = excluded.analysis`,
      ),
      deleteDoc: db.prepare("DELETE FROM documents WHERE workspace_id = ? AND source_path = ?"),
      insertChunk: db.prepare(
        `INSERT INTO chunks (workspace_id, source_path, ord, chunk_hash, anchor, start_offset, end_offset, text, terms, authored_at, undated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      deleteChunk: db.prepare("DELETE FROM chunks WHERE id = ?"),
      logChange: db.prepare("INSERT INTO changes (workspace_id, chunk_id, op) VALUES (?, ?, ?)"),
      hashChunks: db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = ? AND chunk_hash = ?`),
      chunkById: db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE id = ? AND workspace_id = ?`),
      // CROSS JOIN fixes the loop order: primary-key lookups per id, never a scan of the workspace's chunks.
      chunksByIds: db.prepare(
        `SELECT ${CHUNK_COLUMNS.split(", ")
          .map((c) => `c.${c}`)
          .join(", ")} FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.workspace_id = ?`,
      ),
      anyTombstone: db.prepare("SELECT 1 FROM forgotten WHERE workspace_id = ? LIMIT 1").pluck(),
      hasHash: db.prepare("SELECT 1 FROM chunks WHERE workspace_id = ? AND chunk_hash = ? LIMIT 1").pluck(),
      remaining: db.prepare("SELECT COUNT(*) FROM chunks WHERE workspace_id = ? AND source_path = ?").pluck(),
      tombstone: db.prepare(
        "INSERT INTO forgotten (workspace_id, kind, key, at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at",
      ),
      unTombstone: db.prepare("DELETE FROM forgotten WHERE workspace_id = ? AND kind = ? AND key = ?"),
      isTombstoned: db.prepare("SELECT 1 FROM forgotten WHERE workspace_id = ? AND kind = ? AND key = ?").pluck(),
      // Every ingest reads and writes vectors.
      getVector: db.prepare("SELECT vector FROM embeddings WHERE embedder_id = ? AND chunk_hash = ?").pluck(),
      putVector: db.prepare("INSERT OR REPLACE INTO embeddings (embedder_id, chunk_hash, vector) VALUES (?, ?, ?)"),
      announce: db.prepare(
        "INSERT INTO changes (workspace_id, chunk_id, op) SELECT workspace_id, id, 1 FROM chunks WHERE chunk_hash = ?",
      ),
    };
  }

  async getDocument(workspaceId: string, sourcePath: string): Promise<DocumentRecord | undefined> {
    const r = this.s.getDoc.get(workspaceId, sourcePath) as DocRow | undefined;
    return r && toDocument(r);
  }

  /** Documents whose source_path starts with the prefix ('' = all), by source_path. */
  async listDocuments(workspaceId: string, prefix = ""): Promise<DocumentRecord[]> {
    return (this.s.listDocs.all(workspaceId, prefix, prefix) as DocRow[]).map(toDocument);
  }

  async documentChunks(workspaceId: string, sourcePath: string): Promise<ChunkRecord[]> {
    return this.chunksOf(workspaceId, sourcePath);
  }

  async chunksByHash(workspaceId: string, chunkHash: string): Promise<ChunkRecord[]> {
    return this.hashChunks(workspaceId, chunkHash);
  }

  async storedChunkHashes(workspaceId: string, chunkHashes: readonly string[]): Promise<Set<string>> {
    return new Set(chunkHashes.filter((h) => this.s.hasHash.get(workspaceId, h) !== undefined));
  }

  async replaceDocument(
    workspaceId: string,
    doc: DocumentRecord,
    chunks: ChunkInput[],
    audit?: EventDraft,
    vectors?: NewVectors,
  ): Promise<void> {
    if (!this.writer?.usable) return this.replaceNow(workspaceId, doc, chunks, audit, vectors);
    try {
      await this.writer.replace({ workspaceId, doc, chunks, audit, vectors });
    } finally {
      this.tx.committedElsewhere();
    }
  }

  /** The replace with its vectors and audit event as one transaction on this connection (a savepoint inside one). */
  replaceNow(
    workspaceId: string,
    doc: DocumentRecord,
    chunks: ChunkInput[],
    audit?: EventDraft,
    vectors?: NewVectors,
  ): void {
    this.tx.runStep((tx) =>
      applySideEffects(tx, workspaceId, { events: audit && [audit], document: { doc, chunks, vectors } }),
    );
  }

  async forgetSource(
    workspaceId: string,
    sourcePath: string,
    now: number,
    audit?: EventDraft,
  ): Promise<RemovedChunk[]> {
    return this.tx.runStep((tx) =>
      forget(tx, workspaceId, { sourcePath }, audit, () => this.removeSource(workspaceId, sourcePath, now)),
    );
  }

  async forgetChunkHash(
    workspaceId: string,
    chunkHash: string,
    now: number,
    audit?: EventDraft,
  ): Promise<RemovedChunk[]> {
    return this.tx.runStep((tx) =>
      forget(tx, workspaceId, { chunkHash }, audit, () => this.removeChunkHash(workspaceId, chunkHash, now)),
    );
  }

  async wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): Promise<boolean> {
    return this.forgotten(workspaceId, key);
  }

  async getEmbeddings(embedderId: string, chunkHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const h of new Set(chunkHashes)) {
      const blob = this.s.getVector.get(embedderId, h) as Buffer | undefined;
      if (blob) out.set(h, fromBlob(blob));
    }
    return out;
  }

  async putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    this.tx.run(() => {
      this.putVectors({ embedderId, byHash: entries });
      for (const hash of entries.keys()) this.s.announce.run(hash);
    });
  }

  async chunksMissingEmbedding(embedderId: string, limit: number): Promise<{ chunkHash: string; text: string }[]> {
    return this.db
      .prepare(
        `SELECT chunk_hash AS chunkHash, MIN(text) AS text FROM chunks k
         WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = ? AND e.chunk_hash = k.chunk_hash)
         GROUP BY chunk_hash LIMIT ?`,
      )
      .all(embedderId, limit) as { chunkHash: string; text: string }[];
  }

  /** A step of the caller's transaction: the vectors first, then the document's chunks in place of its old ones. */
  write(workspaceId: string, { doc, chunks, vectors }: DocumentWrite): void {
    if (vectors) this.putVectors(vectors);
    this.replace(workspaceId, doc, chunks);
  }

  private chunksOf(workspaceId: string, sourcePath: string): ChunkRecord[] {
    return (this.s.docChunks.all(workspaceId, sourcePath) as ChunkRow[]).map(toChunk);
  }

  private hashChunks(workspaceId: string, chunkHash: string): ChunkRecord[] {
    return (this.s.hashChunks.all(workspaceId, chunkHash) as ChunkRow[]).map(toChunk);
  }

  private putVectors({ embedderId, byHash }: NewVectors): void {
    for (const [hash, vector] of byHash) this.s.putVector.run(embedderId, hash, toBlob(vector));
  }

  private replace(workspaceId: string, doc: DocumentRecord, chunks: readonly ChunkInput[]): void {
    this.db
      .transaction(() => {
        for (const old of this.chunksOf(workspaceId, doc.sourcePath)) this.removeChunk(workspaceId, old.id);
        this.s.upsertDoc.run(
          workspaceId,
          doc.sourcePath,
          doc.documentHash,
          doc.kind,
          doc.authoredAt,
          doc.ingestedAt,
          doc.content,
          doc.analysis,
        );
        const tombstones = this.s.anyTombstone.get(workspaceId) !== undefined;
        chunks.forEach((c, ord) => {
          const { lastInsertRowid } = this.s.insertChunk.run(
            workspaceId,
            doc.sourcePath,
            ord,
            c.chunkHash,
            c.anchor,
            c.start,
            c.end,
            c.text,
            c.terms,
            c.occurredAt ?? doc.authoredAt,
            c.undated ? 1 : 0,
          );
          this.s.logChange.run(workspaceId, lastInsertRowid, OP_ADD);
          if (tombstones) this.s.unTombstone.run(workspaceId, "chunk_hash", c.chunkHash);
        });
        if (tombstones) this.s.unTombstone.run(workspaceId, "source_path", doc.sourcePath);
      })
      .immediate();
  }

  private removeSource(workspaceId: string, sourcePath: string, now: number): RemovedChunk[] {
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
  private removeChunkHash(workspaceId: string, chunkHash: string, now: number): RemovedChunk[] {
    return this.db
      .transaction(() => {
        const removed = this.hashChunks(workspaceId, chunkHash);
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

  /** A step of the caller's transaction (or a read of its own). */
  forgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): boolean {
    const [kind, value] =
      key.sourcePath !== undefined ? ["source_path", key.sourcePath] : ["chunk_hash", key.chunkHash ?? ""];
    return this.s.isTombstoned.get(workspaceId, kind, value) !== undefined;
  }

  /**
   * Rows the cache does not hold are read in one prepared statement over a JSON id list: no per-call prepare, and all
   * from one snapshot (per-id reads could see half a replace). A row never changes and its id is never reused
   * (AUTOINCREMENT), so a cached row is exact; rows this process removes leave the cache at once, and the ids a search
   * asks for come from an index that has already dropped what other processes removed.
   */
  async getChunks(workspaceId: string, ids: readonly number[]): Promise<ChunkRecord[]> {
    const missing = ids.filter((id) => !this.hot.has(id));
    if (missing.length === 1) {
      const row = this.s.chunkById.get(missing[0], workspaceId) as ChunkRow | undefined;
      if (row) this.hot.put(row.id, workspaceId, toChunk(row));
    } else if (missing.length > 1)
      for (const row of this.s.chunksByIds.all(JSON.stringify(missing), workspaceId) as ChunkRow[])
        this.hot.put(row.id, workspaceId, toChunk(row));
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
