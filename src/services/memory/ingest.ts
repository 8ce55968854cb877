// Ingest: chunk, tokenize and embed off the hot path in slices, then replace the source in one transaction.
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { AppError } from "../../contract/errors.ts";
import type { IngestRequest, IngestResponse } from "../../contract/memory.ts";
import { inferKind, type DocumentKind } from "../../domain/text/chunk.ts";
import { contentHash } from "../../domain/text/hash.ts";
import type { ChunkInput, DocumentWrite, NewVectors } from "../../ports/documents.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Embedder } from "../../ports/embedding.ts";
import type { EventDraft } from "../../ports/audit-log.ts";
import type { AuditLog } from "../../ports/audit-log.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import { ANALYSIS_VERSION, analyseDocument } from "./analyse.ts";
import { frontMatterDate } from "../../domain/time/front-matter.ts";
import { chunkStamp, datedLines } from "../../domain/time/dated-lines.ts";
import { looksBinary } from "./binary.ts";
import type { IngestPool } from "./ingest-pool.ts";
import { draftEvent } from "../audit/audit.ts";
import { citationOf } from "./citations.ts";
import { TurnGate } from "../../threads/turn-gate.ts";
import type { Citation } from "../../contract/citation.ts";
import type { CallContext } from "../../ports/call-context.ts";

/** Work between yields to the event loop, so one large ingest never stalls other callers for long. */
const SLICE = 256;
/** Shorter documents are analysed inline: a worker round trip costs more than chunking a note. */
const POOL_MIN_CHARS = 4096;

export class IngestService {
  /** Analysis on this loop takes turns with requests: a recall is not held behind every queued write's analysis. */
  private readonly turns = new TurnGate();

  constructor(
    private readonly store: { documents: DocumentStore; audit: Pick<AuditLog, "appendEvents"> },
    private readonly embedder: Embedder | null,
    private readonly clock: Clock,
    private readonly log: (msg: string) => void = () => {},
    /** Called when vectors could not be computed now; the background job fills them later. */
    private readonly onDeferred: () => void = () => {},
    /** Worker threads for chunk, tokenize and embed; null analyses on the calling loop. */
    private pool: IngestPool | null = null,
  ) {}

  /** Stops the ingest workers. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  /** With `call`, a memory.ingest audit event is written in the same transaction as the chunks. */
  async ingest(workspaceId: string, req: IngestRequest, call?: CallContext): Promise<IngestResponse> {
    const { result, write, audit } = await this.prepare(workspaceId, req, call);
    if (write) await this.store.documents.replaceDocument(workspaceId, write.doc, write.chunks, audit, write.vectors);
    else if (audit) await this.store.audit.appendEvents(workspaceId, [audit]);
    return result;
  }

  /**
   * Everything an ingest computes before its transaction: the response, the document write (null when the source is
   * unchanged) and its audit draft. Knowledge routes commit the write together with their own record.
   */
  async prepare(
    workspaceId: string,
    req: IngestRequest,
    call?: CallContext,
  ): Promise<{ result: IngestResponse; write: DocumentWrite | null; audit: EventDraft | undefined }> {
    if (looksBinary(req.content)) throw new AppError("binary_content", "content looks binary; send UTF-8 text");
    const documentHash = contentHash(req.content);
    const sourcePath = req.source_path ?? `text/${documentHash.slice(7, 19)}`;
    const kind = req.kind ?? inferKind(sourcePath);
    const now = this.clock.now().getTime();
    const given = req.occurred_at ?? req.timestamp;
    const stated = given ? Date.parse(given) : kind === "markdown" ? frontMatterDate(req.content) : null;
    const previous = await this.store.documents.getDocument(workspaceId, sourcePath);
    const same =
      previous?.documentHash === documentHash && previous.kind === kind && (!given || previous.authoredAt === stated)
        ? previous
        : null;
    // The same document again keeps the event time it was stored with (an undated one is not re-dated to now).
    const authoredAt = same ? same.authoredAt : (stated ?? now);
    const oldChunks = previous ? await this.store.documents.documentChunks(workspaceId, sourcePath) : [];
    const ref = (c: { chunkHash: string; anchor: string }) => ({ chunk_hash: c.chunkHash, anchor: c.anchor });
    const event = (r: IngestResponse) =>
      call &&
      draftEvent(
        call,
        "memory.ingest",
        {
          source_path: r.source_path,
          document_hash: r.document_hash,
          unchanged: r.unchanged,
          chunks: r.chunks,
          added: r.added.length,
          kept: r.kept.length,
          removed: r.removed.length,
        },
        now,
      );
    // Unchanged, unless an older analysis made its chunks' terms (a newer one's are kept: replicas mid-upgrade).
    if (same && same.analysis >= ANALYSIS_VERSION) {
      const result = {
        source_path: sourcePath,
        document_hash: documentHash,
        kind,
        unchanged: true,
        chunks: oldChunks.length,
        added: [],
        kept: oldChunks.map(ref),
        removed: [],
        deduplicated: 0,
      };
      return { result, write: null, audit: event(result) || undefined };
    }

    const oldHashes = new Set(oldChunks.map((c) => c.chunkHash));
    const analysed = await this.analyse(req.content, kind, oldHashes);
    const computed = analysed.computed;
    // Analysed again, the same content does not bring back a chunk the caller forgot (a changed document may).
    const chunks = same ? await this.unforgotten(workspaceId, analysed.chunks) : analysed.chunks;
    if (kind !== "code") dateChunks(chunks, req.content);
    // Undated where nothing dates it: the same document again keeps what its first ingest said (the CLI sends no time).
    const dated = stated !== null || (same !== null && !oldChunks.some((c) => c.undated));
    if (!dated) for (const c of chunks) if (c.occurredAt === undefined) c.undated = true;
    const newHashes = new Set(chunks.map((c) => c.chunkHash));
    const added = chunks.filter((c) => !oldHashes.has(c.chunkHash));
    const deduplicated = (
      await this.store.documents.storedChunkHashes(workspaceId, [...new Set(added.map((c) => c.chunkHash))])
    ).size;
    const vectors = await this.embedMissing(added, computed);
    const result: IngestResponse = {
      source_path: sourcePath,
      document_hash: documentHash,
      kind,
      unchanged: false,
      chunks: chunks.length,
      added: added.map(ref),
      kept: chunks.filter((c) => oldHashes.has(c.chunkHash)).map(ref),
      removed: oldChunks.filter((c) => !newHashes.has(c.chunkHash)).map(ref),
      deduplicated,
    };
    const write = {
      doc: {
        sourcePath,
        documentHash,
        kind,
        authoredAt,
        ingestedAt: now,
        content: req.content,
        analysis: ANALYSIS_VERSION,
      },
      chunks,
      vectors,
    };
    return { result, write, audit: event(result) || undefined };
  }

  /**
   * A markdown note the service writes itself (a decision, a capture, an approved artefact), prepared for the caller's
   * transaction, with a citation (score 1) per chunk; an unchanged note is cited from what is stored.
   */
  async prepareNote(
    workspaceId: string,
    sourcePath: string,
    content: string,
    now: Date,
  ): Promise<{ write: DocumentWrite | undefined; citations: Citation[] }> {
    const { write } = await this.prepare(workspaceId, { content, source_path: sourcePath, kind: "markdown" });
    const chunks = write?.chunks ?? (await this.store.documents.documentChunks(workspaceId, sourcePath));
    return { write: write ?? undefined, citations: chunks.map((c) => citationOf({ ...c, sourcePath }, 1, now)) };
  }

  /** The chunks whose hash the caller has not forgotten in this workspace. */
  private async unforgotten(workspaceId: string, chunks: ChunkInput[]): Promise<ChunkInput[]> {
    const forgotten = new Set<string>();
    for (const hash of new Set(chunks.map((c) => c.chunkHash)))
      if (await this.store.documents.wasForgotten(workspaceId, { chunkHash: hash })) forgotten.add(hash);
    return chunks.filter((c) => !forgotten.has(c.chunkHash));
  }

  /** Chunks and terms, and vectors by hash when computed with them: from a worker, or from this loop in its turn. */
  private async analyse(content: string, kind: DocumentKind, stored: ReadonlySet<string>): Promise<Analysed> {
    if (this.pool && content.length >= POOL_MIN_CHARS) {
      try {
        const { chunks, vectors } = await this.pool.analyse(content, kind);
        return { chunks, computed: vectors && new Map(chunks.map((c, i) => [c.chunkHash, vectors[i]!])) };
      } catch (err) {
        this.log(`ingest workers failed, analysing on the request loop from now on: ${(err as Error).message}`);
        void this.pool.close();
        this.pool = null;
      }
    }
    return this.turns.run(() => this.analyseHere(content, kind, stored));
  }

  /** On this loop, in slices: chunks and terms, and a cheap embedder's vectors of the chunks not `stored` already. */
  private async analyseHere(content: string, kind: DocumentKind, stored: ReadonlySet<string>): Promise<Analysed> {
    const chunks: ChunkInput[] = [];
    for (const chunk of analyseDocument(content, kind)) {
      if (chunks.length > 0 && chunks.length % SLICE === 0) await yieldToLoop();
      chunks.push(chunk);
    }
    // Only CPU work waits for the turn: a store read or a remote embedder's call is made after it (embedMissing).
    if (!this.embedder?.cheap) return { chunks, computed: null };
    try {
      const fresh = new Map(chunks.filter((c) => !stored.has(c.chunkHash)).map((c) => [c.chunkHash, c.text]));
      return { chunks, computed: await this.embedInSlices([...fresh]) };
    } catch {
      return { chunks, computed: null }; // embedMissing tries again and defers to the background job
    }
  }

  /**
   * Embeds texts the cache lacks (taking them from `computed` when a worker already did); on embedder failure the ingest
   * still lands and the background job fills vectors later.
   */
  private async embedMissing(
    chunks: readonly ChunkInput[],
    computed: ReadonlyMap<string, Float32Array> | null,
  ): Promise<NewVectors | undefined> {
    if (!this.embedder || chunks.length === 0) return undefined;
    // Vectors computed with the analysis (a worker's: GloVe's to the bit, an ONNX model's to float rounding; or a cheap
    // embedder's on this loop) are the loop embedder's, so one already stored for a hash is the same vector: writing it
    // again is cheaper than looking it up first.
    if (computed)
      return {
        embedderId: this.embedder.id,
        byHash: new Map(chunks.map((c) => [c.chunkHash, computed.get(c.chunkHash)!])),
      };
    const have = this.embedder.cheap
      ? new Map<string, Float32Array>()
      : await this.store.documents.getEmbeddings(
          this.embedder.id,
          chunks.map((c) => c.chunkHash),
        );
    const todo = [...new Map(chunks.filter((c) => !have.has(c.chunkHash)).map((c) => [c.chunkHash, c.text])).entries()];
    let byHash = new Map<string, Float32Array>();
    try {
      byHash = await this.embedInSlices(todo);
    } catch (err) {
      this.log(`embedding deferred to the background job: ${(err as Error).message}`);
      setImmediate(this.onDeferred); // after this ingest's transaction commits, so the job sees its chunks
    }
    return { embedderId: this.embedder.id, byHash };
  }

  /** Vectors of [hash, text] pairs by hash, SLICE texts at a time with the loop given back between slices. */
  private async embedInSlices(todo: readonly (readonly [string, string])[]): Promise<Map<string, Float32Array>> {
    const byHash = new Map<string, Float32Array>();
    for (let i = 0; i < todo.length; i += SLICE) {
      if (i > 0) await yieldToLoop();
      const slice = todo.slice(i, i + SLICE);
      const vectors = await this.embedder!.embed(slice.map(([, text]) => text));
      slice.forEach(([hash], j) => byHash.set(hash, vectors[j]!));
    }
    return byHash;
  }
}

/** A document's chunks, with the vectors computed alongside by chunk hash (null: none, embedMissing embeds). */
interface Analysed {
  chunks: ChunkInput[];
  computed: ReadonlyMap<string, Float32Array> | null;
}

/** A chunk below a dated line (a session header, a turn stamp) occurred then; others keep the document's time. */
function dateChunks(chunks: ChunkInput[], content: string): void {
  const stamps = datedLines(content);
  if (stamps.length === 0) return;
  for (const c of chunks) c.occurredAt = chunkStamp(stamps, c);
}
