// Document replaces on a writer thread with its own connection: an ingest's transaction (a 50-chunk document's rows,
// vectors and index pages, ~2-7 ms) then never holds the request loop, so recalls keep running beside a bulk import.
// SQLite still serialises writers: the loop's own writes wait on the file lock, not on the thread's CPU work.
import type { EventDraft } from "../../ports/audit-log.ts";
import type { ChunkInput, DocumentRecord, NewVectors } from "../../ports/documents.ts";
import { ThreadGone, ThreadPool, threadModule } from "../../threads/pool.ts";

export interface DocumentReplace {
  workspaceId: string;
  doc: DocumentRecord;
  chunks: ChunkInput[];
  audit?: EventDraft | undefined;
  vectors?: NewVectors | undefined;
}

/** What the thread opens: the same file with the same durability. */
export interface WriterInit {
  file: string;
  synchronous?: "normal" | "full" | undefined;
}

export class DocumentWriter {
  private readonly thread: ThreadPool<DocumentReplace, null>;
  private failed = false;

  constructor(init: WriterInit, idleMs?: number) {
    this.thread = new ThreadPool(threadModule("writer-thread", import.meta.url), init, 1, idleMs);
  }

  /** Threads alive now (0 or 1: it starts on the first write and exits after `idleMs` without one). */
  get threads(): number {
    return this.thread.running;
  }

  /** False once the thread failed: the caller writes on its own connection from then on. */
  get usable(): boolean {
    return !this.failed;
  }

  /**
   * Resolves once committed. A thread that died fails its call (it may have committed first, so the write is not
   * repeated) and no call after it goes to a thread.
   */
  async replace(req: DocumentReplace): Promise<void> {
    try {
      await this.thread.run(req);
    } catch (err) {
      if (err instanceof ThreadGone) this.failed = true;
      throw err;
    }
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
