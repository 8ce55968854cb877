// Ingest: chunk, tokenize and embed off the hot path in slices, then replace the source in one transaction.
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { AppError } from "../../contract/errors.ts";
import type { IngestRequest, IngestResponse } from "../../contract/memory.ts";
import { chunkDocument, inferKind } from "../../domain/text/chunk.ts";
import { contentHash } from "../../domain/text/hash.ts";
import { tokenize } from "../../domain/text/tokenize.ts";
import type { ChunkInput, DocumentWrite, NewVectors } from "../../ports/documents.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Embedder } from "../../ports/embedding.ts";
import type { EventDraft } from "../../ports/audit-log.ts";
import type { AuditLog } from "../../ports/audit-log.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import { looksBinary } from "./binary.ts";
import { draftEvent } from "../audit/audit.ts";
import { citationOf } from "./citations.ts";
import type { Citation } from "../../contract/citation.ts";
import type { CallContext } from "../context.ts";

/** Work between yields to the event loop, so one large ingest never stalls other callers for long. */
const SLICE = 256;

export class IngestService {
  constructor(
    private readonly store: DocumentStore & Pick<AuditLog, "appendEvents">,
    private readonly embedder: Embedder | null,
    private readonly clock: Clock,
    private readonly log: (msg: string) => void = () => {},
    /** Called when vectors could not be computed now; the background job fills them later. */
    private readonly onDeferred: () => void = () => {},
  ) {}

  /** With `call`, a memory.ingest audit event is written in the same transaction as the chunks. */
  async ingest(workspaceId: string, req: IngestRequest, call?: CallContext): Promise<IngestResponse> {
    const { result, write, audit } = await this.prepare(workspaceId, req, call);
    if (write) await this.store.replaceDocument(workspaceId, write.doc, write.chunks, audit, write.vectors);
    else if (audit) await this.store.appendEvents(workspaceId, [audit]);
    return result;
  }

  /**
   * Everything an ingest computes before its transaction: the response, the document write (null when the source is
   * unchanged) and its audit draft. Knowledge routes commit the write together with their own record.
   */
  async prepare(workspaceId: string, req: IngestRequest, call?: CallContext): Promise<{ result: IngestResponse; write: DocumentWrite | null; audit: EventDraft | undefined }> {
    if (looksBinary(req.content)) throw new AppError("binary_content", "content looks binary; send UTF-8 text");
    const documentHash = contentHash(req.content);
    const sourcePath = req.source_path ?? `text/${documentHash.slice(7, 19)}`;
    const kind = req.kind ?? inferKind(sourcePath);
    const now = this.clock.now().getTime();
    const authoredAt = req.timestamp ? Date.parse(req.timestamp) : now;
    const previous = await this.store.getDocument(workspaceId, sourcePath);
    const oldChunks = previous ? await this.store.documentChunks(workspaceId, sourcePath) : [];
    const ref = (c: { chunkHash: string; anchor: string }) => ({ chunk_hash: c.chunkHash, anchor: c.anchor });
    const event = (r: IngestResponse) =>
      call &&
      draftEvent(call, "memory.ingest", { source_path: r.source_path, document_hash: r.document_hash, unchanged: r.unchanged, chunks: r.chunks, added: r.added.length, kept: r.kept.length, removed: r.removed.length }, now);
    if (previous && previous.documentHash === documentHash && previous.kind === kind && (!req.timestamp || previous.authoredAt === authoredAt)) {
      const result = { source_path: sourcePath, document_hash: documentHash, kind, unchanged: true, chunks: oldChunks.length, added: [], kept: oldChunks.map(ref), removed: [], deduplicated: 0 };
      return { result, write: null, audit: event(result) || undefined };
    }

    const chunks: ChunkInput[] = [];
    for (const [i, c] of chunkDocument(req.content, kind).entries()) {
      if (i > 0 && i % SLICE === 0) await yieldToLoop();
      const section = kind === "markdown" && !/^L\d+-L\d+$/.test(c.anchor) ? `${c.anchor}\n` : "";
      chunks.push({ chunkHash: c.hash, anchor: c.anchor, start: c.start, end: c.end, text: c.text, terms: tokenize(section + c.text) });
    }
    const oldHashes = new Set(oldChunks.map((c) => c.chunkHash));
    const newHashes = new Set(chunks.map((c) => c.chunkHash));
    const added = chunks.filter((c) => !oldHashes.has(c.chunkHash));
    let deduplicated = 0;
    for (const hash of new Set(added.map((c) => c.chunkHash))) if (await this.store.hasChunkHash(workspaceId, hash)) deduplicated++;
    const vectors = await this.embedMissing(added);
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
    const write = { doc: { sourcePath, documentHash, kind, authoredAt, ingestedAt: now, content: req.content }, chunks, vectors };
    return { result, write, audit: event(result) || undefined };
  }

  /**
   * A markdown note the service writes itself (a decision, a capture, an approved artefact), prepared for the caller's
   * transaction, with a citation (score 1) per chunk; an unchanged note is cited from what is stored.
   */
  async prepareNote(workspaceId: string, sourcePath: string, content: string, now: Date): Promise<{ write: DocumentWrite | undefined; citations: Citation[] }> {
    const { write } = await this.prepare(workspaceId, { content, source_path: sourcePath, kind: "markdown" });
    const chunks = write?.chunks ?? (await this.store.documentChunks(workspaceId, sourcePath));
    return { write: write ?? undefined, citations: chunks.map((c) => citationOf({ ...c, sourcePath }, 1, now)) };
  }

  /** Embeds texts the cache lacks; on embedder failure the ingest still lands and the background job fills vectors later. */
  private async embedMissing(chunks: readonly ChunkInput[]): Promise<NewVectors | undefined> {
    if (!this.embedder || chunks.length === 0) return undefined;
    const have = await this.store.getEmbeddings(this.embedder.id, chunks.map((c) => c.chunkHash));
    const todo = [...new Map(chunks.filter((c) => !have.has(c.chunkHash)).map((c) => [c.chunkHash, c.text])).entries()];
    const byHash = new Map<string, Float32Array>();
    try {
      for (let i = 0; i < todo.length; i += SLICE) {
        const slice = todo.slice(i, i + SLICE);
        const vectors = await this.embedder.embed(slice.map(([, text]) => text));
        slice.forEach(([hash], j) => byHash.set(hash, vectors[j]!));
        await yieldToLoop();
      }
    } catch (err) {
      this.log(`embedding deferred to the background job: ${(err as Error).message}`);
      setImmediate(this.onDeferred); // after this ingest's transaction commits, so the job sees its chunks
    }
    return { embedderId: this.embedder.id, byHash };
  }
}
