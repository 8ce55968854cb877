// The PostgreSQL store's write transactions: one pooled connection each, taking the advisory locks in one order (the
// chunks' LOCK.changes before a workspace's LOCK.audit), so concurrent writers on any replica never wait in a circle.
import type { EventDraft } from "../../ports/audit-log.ts";
import type { DocumentWrite, RemovedChunk } from "../../ports/documents.ts";
import type { RecordRow, RecordSideEffects } from "../../ports/records.ts";
import { lock, transaction, type Conn, type Db } from "./open.ts";
import { LOCK } from "./schema.ts";
import type pg from "pg";

/** The repositories' steps a transaction is made of, each run on its connection. */
export interface WriteSteps {
  documents: {
    write(c: pg.PoolClient, workspaceId: string, write: DocumentWrite): Promise<void>;
    wasForgotten(workspaceId: string, key: { sourcePath?: string; chunkHash?: string }, c: Conn): Promise<boolean>;
  };
  records: { insert(c: pg.PoolClient, workspaceId: string, record: RecordRow): Promise<boolean> };
  audit: { append(c: pg.PoolClient, workspaceId: string, drafts: readonly EventDraft[]): Promise<unknown> };
}

export class PostgresTransactions {
  private steps: WriteSteps | null = null;

  constructor(private readonly db: Db) {}

  /** The repositories' steps, once they are built (they are built with this object, so after it). */
  join(steps: WriteSteps): void {
    this.steps = steps;
  }

  /** Runs fn in one transaction on one pooled connection; rolls back on any error. */
  run<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return transaction(this.db, fn);
  }

  /** What a record or a document commits with it: vectors and chunks, further records, then the audit events. */
  async applySideEffects(c: pg.PoolClient, workspaceId: string, also: RecordSideEffects | undefined): Promise<void> {
    const { documents, records, audit } = this.joined();
    if (also?.document) await documents.write(c, workspaceId, also.document); // takes LOCK.changes, before any LOCK.audit below
    for (const r of also?.records ?? []) await records.insert(c, workspaceId, r);
    if (also?.events?.length) await audit.append(c, workspaceId, also.events);
  }

  /** Removes under LOCK.changes and logs effective and repeated forgets; a target that never existed is a 404, not an event. */
  forget(
    workspaceId: string,
    key: { sourcePath?: string; chunkHash?: string },
    draft: EventDraft | undefined,
    remove: (c: pg.PoolClient) => Promise<RemovedChunk[]>,
  ): Promise<RemovedChunk[]> {
    const { documents, audit } = this.joined();
    return this.run(async (c) => {
      await lock(c, LOCK.changes);
      const removed = await remove(c);
      if (draft && (removed.length > 0 || (await documents.wasForgotten(workspaceId, key, c)))) {
        const payload = {
          ...(draft.payload as object),
          removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })),
        };
        await audit.append(c, workspaceId, [{ ...draft, payload }]);
      }
      return removed;
    });
  }

  private joined(): WriteSteps {
    if (!this.steps) throw new Error("PostgresTransactions used before join()");
    return this.steps;
  }
}
