// The SQLite store's write transactions: synchronous, so nothing else runs on the connection between BEGIN IMMEDIATE
// and COMMIT (an await inside one would let another request's statements into it).
import type { EventDraft } from "../../ports/audit-log.ts";
import type { DocumentWrite, RemovedChunk } from "../../ports/documents.ts";
import type { RecordRow, RecordSideEffects } from "../../ports/records.ts";
import type { Db } from "./open.ts";

/** The repositories' steps a transaction is made of, each run inside it. */
export interface WriteSteps {
  documents: {
    write(workspaceId: string, write: DocumentWrite): void;
    forgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }): boolean;
  };
  records: { insert(workspaceId: string, record: RecordRow): boolean };
  audit: { append(workspaceId: string, drafts: readonly EventDraft[]): unknown };
}

export class SqliteTransactions {
  private steps: WriteSteps | null = null;

  constructor(
    private readonly db: Db,
    /** Told of every write this connection commits (SearchFeedRepo.wrote). */
    private readonly feed: { wrote(): void },
  ) {}

  /** The repositories' steps, once they are built (they are built with this object, so after it). */
  join(steps: WriteSteps): void {
    this.steps = steps;
  }

  /** One write transaction around a change and its audit event; the search engine sees it at its next change check. */
  run<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.feed.wrote();
    }
  }

  /** A write committed on another connection of this process (the writer thread). */
  committedElsewhere(): void {
    this.feed.wrote();
  }

  /** What a record or a document commits with it: vectors and chunks, further records, then the audit events. */
  applySideEffects(workspaceId: string, also: RecordSideEffects | undefined): void {
    const { documents, records, audit } = this.joined();
    if (also?.document) documents.write(workspaceId, also.document);
    for (const r of also?.records ?? []) records.insert(workspaceId, r);
    if (also?.events?.length) audit.append(workspaceId, also.events);
  }

  /** Removes and logs effective and repeated forgets; a target that never existed is a 404, not an event. */
  forget(
    workspaceId: string,
    key: { sourcePath?: string; chunkHash?: string },
    draft: EventDraft | undefined,
    remove: () => RemovedChunk[],
  ): RemovedChunk[] {
    const { documents, audit } = this.joined();
    return this.run(() => {
      const removed = remove();
      if (draft && (removed.length > 0 || documents.forgotten(workspaceId, key))) {
        const payload = {
          ...(draft.payload as object),
          removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })),
        };
        audit.append(workspaceId, [{ ...draft, payload }]);
      }
      return removed;
    });
  }

  private joined(): WriteSteps {
    if (!this.steps) throw new Error("SqliteTransactions used before join()");
    return this.steps;
  }
}
