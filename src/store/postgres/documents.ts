// Documents, their chunks and the chunks' vectors in PostgreSQL: atomic replace, forget with tombstones, and row reads.
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
import { lock, type Conn, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import { GroupCommit } from "../group-commit.ts";
import { applySideEffects, forget, type TxEngine } from "../write-steps.ts";
import type { PostgresTransactions } from "./transactions.ts";
import type pg from "pg";

type Replace = { workspaceId: string; document: DocumentWrite; events: EventDraft[] | undefined };
/** One document of a many-document write. */
export type DocumentWriteIn = { workspaceId: string; document: DocumentWrite };

export class DocumentRepo implements DocumentStore {
  private readonly hot = new ChunkCache();
  /** Replaces asked for while one commits go together in the next transaction: one commit (and fsync) per batch. */
  private readonly replaces = new GroupCommit<Replace, void>(
    (batch) =>
      this.tx.runBatch(
        batch.map((r) => (tx: TxEngine) => applySideEffects(tx, r.workspaceId, r)),
        batch.length > 1 ? (c) => this.tx.writeTogether(c, batch) : undefined,
      ),
    (r) => r.document.chunks.length + 1,
  );

  constructor(
    private readonly db: Db,
    private readonly tx: PostgresTransactions,
  ) {}

  /** Resolves once the replaces asked for so far have committed or failed (the store closes its pool after). */
  settled(): Promise<void> {
    return this.replaces.settled();
  }

  async getDocument(workspaceId: string, sourcePath: string, c: Conn = this.db): Promise<DocumentRecord | undefined> {
    const { rows } = await c.query<DocRow>({
      name: "doc_get",
      text: "SELECT * FROM documents WHERE workspace_id = $1 AND source_path = $2",
      values: [workspaceId, sourcePath],
    });
    return rows[0] && toDocument(rows[0]);
  }

  /** Documents whose source_path starts with the prefix ('' = all), by source_path (byte order, as on SQLite). */
  async listDocuments(workspaceId: string, prefix = ""): Promise<DocumentRecord[]> {
    const { rows } = await this.db.query<DocRow>(
      `SELECT * FROM documents WHERE workspace_id = $1 AND left(source_path, length($2)) = $2 ORDER BY source_path`,
      [workspaceId, prefix],
    );
    return rows.map(toDocument);
  }

  async documentChunks(workspaceId: string, sourcePath: string, c: Conn = this.db): Promise<ChunkRecord[]> {
    const { rows } = await c.query<ChunkRow>({
      name: "doc_chunks",
      text: `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = $1 AND source_path = $2 ORDER BY ord`,
      values: [workspaceId, sourcePath],
    });
    return rows.map(toChunk);
  }

  async chunksByHash(workspaceId: string, chunkHash: string, c: Conn = this.db): Promise<ChunkRecord[]> {
    const { rows } = await c.query<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE workspace_id = $1 AND chunk_hash = $2 ORDER BY id`,
      [workspaceId, chunkHash],
    );
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

  async replaceDocument(
    workspaceId: string,
    doc: DocumentRecord,
    chunks: ChunkInput[],
    audit?: EventDraft,
    vectors?: NewVectors,
  ): Promise<void> {
    await this.replaces.submit({ workspaceId, document: { doc, chunks, vectors }, events: audit && [audit] });
  }

  async forgetSource(
    workspaceId: string,
    sourcePath: string,
    now: number,
    audit?: EventDraft,
  ): Promise<RemovedChunk[]> {
    return this.tx.runStep((tx, c) =>
      forget(tx, workspaceId, { sourcePath }, audit, () => this.removeSource(c, workspaceId, sourcePath, now)),
    );
  }

  async forgetChunkHash(
    workspaceId: string,
    chunkHash: string,
    now: number,
    audit?: EventDraft,
  ): Promise<RemovedChunk[]> {
    return this.tx.runStep((tx, c) =>
      forget(tx, workspaceId, { chunkHash }, audit, () => this.removeChunkHash(c, workspaceId, chunkHash, now)),
    );
  }

  async getEmbeddings(embedderId: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0) return out;
    const { rows } = await this.db.query<{ chunk_hash: string; vector: Buffer }>({
      name: "embeddings_get",
      text: "SELECT chunk_hash, vector FROM embeddings WHERE embedder_id = $1 AND chunk_hash = ANY($2::text[])",
      values: [embedderId, [...new Set(hashes)]],
    });
    for (const r of rows) out.set(r.chunk_hash, fromBlob(r.vector));
    return out;
  }

  async putEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    if (entries.size === 0) return;
    await this.tx.run(async (c) => {
      await lock(c, LOCK.changes);
      await this.putVectors(c, { embedderId, byHash: entries });
      // Announce the chunks again, so loaded vector indexes on every replica pick the vectors up.
      await c.query(
        "INSERT INTO changes (workspace_id, chunk_id, op) SELECT workspace_id, id, 1 FROM chunks WHERE chunk_hash = ANY($1::text[]) ORDER BY id",
        [[...entries.keys()]],
      );
    });
  }

  async chunksMissingEmbedding(embedderId: string, limit: number): Promise<{ chunkHash: string; text: string }[]> {
    const { rows } = await this.db.query<{ chunkHash: string; text: string }>(
      `SELECT chunk_hash AS "chunkHash", MIN(text) AS text FROM chunks k
       WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.embedder_id = $1 AND e.chunk_hash = k.chunk_hash)
       GROUP BY chunk_hash LIMIT $2`,
      [embedderId, limit],
    );
    return rows;
  }

  /** A step of the caller's transaction: the vectors first, then the document's chunks in place of its old ones. */
  write(c: pg.PoolClient, workspaceId: string, document: DocumentWrite): Promise<void> {
    return this.writeMany(c, [{ workspaceId, document }]);
  }

  private async putVectors(c: pg.PoolClient, vectors: NewVectors): Promise<void> {
    if (vectors.byHash.size > 0) await c.query(UPSERT_VECTORS, vectorColumns([vectors]));
  }

  /**
   * Several documents as one step of the caller's transaction, a statement per table whatever their number (group
   * commit's batch: a round trip per table rather than per document). Their (workspace, source_path) are distinct.
   * Under LOCK.changes (so the change log's seqs follow commit order), taken by the first statement after its writes
   * of vectors, documents and cleared tombstones, the second takes their old chunks out and the new ones in with their
   * change rows, so the lock is held for one round trip and the commit.
   */
  async writeMany(c: pg.PoolClient, writes: readonly DocumentWriteIn[]): Promise<void> {
    const docs = writes.map((w) => ({ ws: w.workspaceId, ...w.document.doc }));
    const column = <K extends keyof (typeof docs)[number]>(k: K) => docs.map((d) => d[k]);
    // The tombstones a write clears: its source path's and each of its chunk hashes'.
    const cleared = writes.flatMap(({ workspaceId, document: { doc, chunks } }) => [
      [workspaceId, "source_path", doc.sourcePath],
      ...[...new Set(chunks.map((k) => k.chunkHash))].map((h) => [workspaceId, "chunk_hash", h]),
    ]);
    await c.query(
      `WITH vectors AS (${UPSERT_VECTORS}),
       docs AS (
         INSERT INTO documents (workspace_id, source_path, document_hash, kind, authored_at, ingested_at, content, analysis)
         SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::int[])
         ON CONFLICT (workspace_id, source_path) DO UPDATE SET document_hash = excluded.document_hash, kind = excluded.kind,
           authored_at = excluded.authored_at, ingested_at = excluded.ingested_at, content = excluded.content,
           analysis = excluded.analysis),
       cleared AS (
         DELETE FROM forgotten f USING unnest($12::text[], $13::text[], $14::text[]) AS d(ws, kind, key)
         WHERE f.workspace_id = d.ws AND f.kind = d.kind AND f.key = d.key)
       SELECT pg_advisory_xact_lock($15, hashtext(''))`,
      [
        ...vectorColumns(writes.flatMap((w) => (w.document.vectors ? [w.document.vectors] : []))),
        column("ws"),
        column("sourcePath"),
        column("documentHash"),
        column("kind"),
        column("authoredAt"),
        column("ingestedAt"),
        column("content"),
        column("analysis"),
        cleared.map((r) => r[0]),
        cleared.map((r) => r[1]),
        cleared.map((r) => r[2]),
        LOCK.changes,
      ],
    );
    const chunks = writes.flatMap(({ workspaceId, document: { doc, chunks } }) =>
      chunks.map((k, ord) => ({ ws: workspaceId, path: doc.sourcePath, ord, k, at: k.occurredAt ?? doc.authoredAt })),
    );
    // The delete and the insert see the same snapshot: only the old rows go. Removals are logged before additions;
    // new chunks take their ids in the order of the writes and, within one, of their ord.
    const { rows } = await c.query<{ id: number }>(
      `WITH gone AS (
         DELETE FROM chunks k USING unnest($1::text[], $2::text[]) AS d(ws, path)
         WHERE k.workspace_id = d.ws AND k.source_path = d.path RETURNING k.workspace_id, k.id),
       added AS (
         INSERT INTO chunks (workspace_id, source_path, ord, chunk_hash, anchor, start_offset, end_offset, text, terms, authored_at, undated)
         SELECT t.ws, t.path, t.ord, t.chunk_hash, t.anchor, t.start_offset, t.end_offset, t.text, t.terms, t.authored_at, t.undated
         FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[], $11::text[], $12::bigint[], $13::int[])
           WITH ORDINALITY AS t(ws, path, ord, chunk_hash, anchor, start_offset, end_offset, text, terms, authored_at, undated, n)
         ORDER BY t.n
         RETURNING workspace_id, id),
       logged AS (
         INSERT INTO changes (workspace_id, chunk_id, op)
         SELECT workspace_id, id, op FROM (
           SELECT workspace_id, id, ${OP_REMOVE} AS op FROM gone UNION ALL SELECT workspace_id, id, ${OP_ADD} FROM added
         ) AS x ORDER BY op, id)
       SELECT id FROM gone`,
      [
        column("ws"),
        column("sourcePath"),
        chunks.map((r) => r.ws),
        chunks.map((r) => r.path),
        chunks.map((r) => r.ord),
        chunks.map((r) => r.k.chunkHash),
        chunks.map((r) => r.k.anchor),
        chunks.map((r) => r.k.start),
        chunks.map((r) => r.k.end),
        chunks.map((r) => r.k.text),
        chunks.map((r) => r.k.terms),
        chunks.map((r) => r.at),
        chunks.map((r) => (r.k.undated ? 1 : 0)),
      ],
    );
    for (const r of rows) this.hot.delete(r.id);
  }

  /** Under LOCK.changes, so the change log's order is commit order (as every chunk writer). */
  private async removeSource(
    c: pg.PoolClient,
    workspaceId: string,
    sourcePath: string,
    now: number,
  ): Promise<RemovedChunk[]> {
    await lock(c, LOCK.changes);
    const removed = await this.documentChunks(workspaceId, sourcePath, c);
    await this.removeChunks(c, workspaceId, removed);
    await c.query("DELETE FROM documents WHERE workspace_id = $1 AND source_path = $2", [workspaceId, sourcePath]);
    if (removed.length > 0 || (await this.tombstoned(workspaceId, "source_path", sourcePath, c)))
      await this.tombstone(c, workspaceId, "source_path", sourcePath, now);
    return removed.map(toRemoved);
  }

  /** Removes every chunk with this hash; a source left without chunks is forgotten as a whole. */
  private async removeChunkHash(
    c: pg.PoolClient,
    workspaceId: string,
    chunkHash: string,
    now: number,
  ): Promise<RemovedChunk[]> {
    await lock(c, LOCK.changes);
    const removed = await this.chunksByHash(workspaceId, chunkHash, c);
    await this.removeChunks(c, workspaceId, removed);
    for (const path of new Set(removed.map((k) => k.sourcePath))) {
      const { rows } = await c.query("SELECT 1 FROM chunks WHERE workspace_id = $1 AND source_path = $2 LIMIT 1", [
        workspaceId,
        path,
      ]);
      if (rows.length > 0) continue;
      await c.query("DELETE FROM documents WHERE workspace_id = $1 AND source_path = $2", [workspaceId, path]);
      await this.tombstone(c, workspaceId, "source_path", path, now);
    }
    if (removed.length > 0) await this.tombstone(c, workspaceId, "chunk_hash", chunkHash, now);
    return removed.map(toRemoved);
  }

  async wasForgotten(
    workspaceId: string,
    key: { sourcePath?: string; chunkHash?: string },
    c: Conn = this.db,
  ): Promise<boolean> {
    const [kind, value] =
      key.sourcePath !== undefined ? ["source_path", key.sourcePath] : ["chunk_hash", key.chunkHash ?? ""];
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
    const { rows } = await c.query("SELECT 1 FROM forgotten WHERE workspace_id = $1 AND kind = $2 AND key = $3", [
      workspaceId,
      kind,
      key,
    ]);
    return rows.length > 0;
  }

  private async tombstone(c: pg.PoolClient, workspaceId: string, kind: string, key: string, at: number): Promise<void> {
    await c.query(
      "INSERT INTO forgotten (workspace_id, kind, key, at) VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id, kind, key) DO UPDATE SET at = excluded.at",
      [workspaceId, kind, key, at],
    );
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

/** Vectors by (embedder, chunk hash) from $1-$3 (vectorColumns). */
const UPSERT_VECTORS = `INSERT INTO embeddings (embedder_id, chunk_hash, vector)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])
  ON CONFLICT (embedder_id, chunk_hash) DO UPDATE SET vector = excluded.vector`;

/** The vectors as UPSERT_VECTORS' three columns, one row a (embedder, chunk hash): a statement cannot update a row twice. */
function vectorColumns(sets: readonly NewVectors[]): [string[], string[], Buffer[]] {
  const rows = new Map<string, [string, string, Float32Array]>();
  for (const { embedderId, byHash } of sets)
    for (const [hash, vector] of byHash) rows.set(`${embedderId}\0${hash}`, [embedderId, hash, vector]);
  const all = [...rows.values()];
  return [all.map((r) => r[0]), all.map((r) => r[1]), all.map((r) => toBlob(r[2]))];
}
