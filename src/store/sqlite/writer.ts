// Writes on a thread with its own connection: a document replace (a 50-chunk document's rows, vectors and index pages,
// ~2-7 ms) and an audit record (a grounded answer's is six rows of the hash chain, ~1 ms) then never hold the request
// loop, so recalls keep running beside a bulk import or a chat turn's answers. SQLite still serialises writers: the
// loop's own writes wait on the file lock, not on the thread's CPU work. Writes asked for while the thread commits go
// together in its next transaction (../group-commit.ts), each in a savepoint of its own.
import type { EventDraft, StoredEvent } from "../../ports/audit-log.ts";
import { ThreadGone, ThreadPool, threadModule } from "../../threads/pool.ts";
import { GroupCommit, type Outcome } from "../group-commit.ts";
import { encodeBatch, type DocumentReplace, type WireBatch, type WriteRequest } from "./writer-wire.ts";

/** A replace answers the change rows it logged (flat seq, chunk id, op triples), an audit append the events as stored. */
export type WriteReply = { logged: number[] } | StoredEvent[];

/** Per write of a batch, in order: its reply, or why it was rolled back. */
export type BatchReply = ({ ok: WriteReply } | { error: string })[];

/** Rows a batch holds at most: a few milliseconds of the write lock, which the loop's own writes wait on. */
const BATCH_ROWS = 256;

/** What the thread opens: the same file with the same durability. */
export interface WriterInit {
  file: string;
  synchronous?: "normal" | "full" | undefined;
}

export class SqliteWriter {
  private readonly thread: ThreadPool<WireBatch, BatchReply>;
  private readonly batches = new GroupCommit<WriteRequest, WriteReply>(
    (writes) => this.commit(writes),
    (w) => (w.kind === "replace" ? w.chunks.length + 1 : w.drafts.length),
    BATCH_ROWS,
  );
  private failed = false;
  private closed = false;

  /** `idleMs`: the thread exits after that long without a write (never by default: the next answer would wait for a new one). */
  constructor(init: WriterInit, idleMs = Infinity) {
    this.thread = new ThreadPool(threadModule("writer-thread", import.meta.url), init, 1, idleMs);
  }

  /** Threads alive now (0 or 1: it starts on the first write). */
  get threads(): number {
    return this.thread.running;
  }

  /** False once the thread failed: the caller writes on its own connection from then on. */
  get usable(): boolean {
    return !this.failed;
  }

  /** Resolves once committed, to the change rows it logged (flat seq, chunk id, op triples). */
  async replace(req: DocumentReplace): Promise<number[]> {
    return ((await this.write({ kind: "replace", ...req })) as { logged: number[] }).logged;
  }

  /** Extends the workspace's audit chain; resolves to the events as stored once committed. */
  async appendEvents(workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return (await this.write({ kind: "audit", workspaceId, drafts })) as StoredEvent[];
  }

  /** Writes are committed in the order they were asked for, each acknowledged once its batch has committed. */
  private write(req: WriteRequest): Promise<WriteReply> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    return this.batches.submit(req);
  }

  /**
   * A thread that died fails its batch (it may have committed first, so the writes are not repeated) and no batch after
   * it goes to a thread.
   */
  private async commit(writes: readonly WriteRequest[]): Promise<Outcome<WriteReply>[]> {
    if (this.failed) throw new ThreadGone("the writer thread failed earlier");
    try {
      const { batch, refused } = encodeBatch(writes);
      const replies = batch.writes.length > 0 ? await this.thread.run(batch) : [];
      let next = 0;
      return writes.map((_, i) => {
        const reason = refused.get(i);
        if (reason) return { error: reason };
        const r = replies[next++];
        return !r
          ? { error: new Error("writer thread: no reply for a write") }
          : "ok" in r
            ? r
            : { error: new Error(r.error) };
      });
    } catch (err) {
      if (err instanceof ThreadGone) this.failed = true;
      throw err;
    }
  }

  /** After the writes asked for so far have committed: a batch waiting for the loop's turn would start a new thread. */
  async close(): Promise<void> {
    this.closed = true;
    await this.batches.settled();
    await this.thread.close();
  }
}
