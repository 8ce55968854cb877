// Ingest's CPU work (chunk, tokenize, embed) on worker threads, so the request loop keeps only the SQLite write.
// Workers start on demand, up to `size`, hold the process open only while they have work in flight, and exit after
// IDLE_MS without work: a bulk import pays the start (~0.2 s) once, a service at rest does not keep their memory
// (~70 MB each with GloVe's word index).
import { Worker } from "node:worker_threads";
import type { DocumentKind } from "../../domain/text/chunk.ts";
import type { ChunkInput } from "../../ports/documents.ts";
import type { PortableEmbedder } from "../../ports/embedding.ts";

export interface AnalyseRequest {
  id: number;
  content: string;
  kind: DocumentKind;
}

export interface Analysis {
  chunks: ChunkInput[];
  /** One vector per chunk, when the pool embeds (a portable embedder); null otherwise. */
  vectors: Float32Array[] | null;
}

export type AnalyseReply = ({ id: number } & Analysis) | { id: number; error: string };

const IDLE_MS = 15_000;

interface Pending {
  resolve: (a: Analysis) => void;
  reject: (err: Error) => void;
}

class PoolWorker {
  readonly pending = new Map<number, Pending>();
  private readonly worker: Worker;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    embedder: PortableEmbedder | null,
    private readonly idleMs: number,
    private readonly onGone: (w: PoolWorker) => void,
  ) {
    const typescript = import.meta.url.endsWith(".ts");
    this.worker = new Worker(new URL("./ingest-worker.js", import.meta.url), { workerData: { typescript, embedder } });
    this.worker.unref();
    this.worker.on("message", (reply: AnalyseReply) => this.settle(reply));
    const fail = (err: Error) => {
      onGone(this);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`ingest worker exited with code ${code}`)));
  }

  send(req: AnalyseRequest, pending: Pending): void {
    clearTimeout(this.idleTimer);
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(req.id, pending);
    this.worker.postMessage(req);
  }

  terminate(): Promise<number> {
    clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }

  private settle(reply: AnalyseReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) {
      this.worker.unref();
      this.idleTimer = setTimeout(() => {
        this.onGone(this);
        void this.terminate();
      }, this.idleMs).unref();
    }
    if ("error" in reply) p.reject(new Error(reply.error));
    else p.resolve({ chunks: reply.chunks, vectors: reply.vectors });
  }
}

export class IngestPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;

  constructor(
    private readonly size: number,
    private readonly embedder: PortableEmbedder | null,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Workers alive now. */
  get running(): number {
    return this.workers.length;
  }

  /** True when the workers embed too, so the analysis carries the vectors. */
  get embeds(): boolean {
    return this.embedder !== null;
  }

  analyse(content: string, kind: DocumentKind): Promise<Analysis> {
    const worker = this.leastBusy();
    const req = { id: this.nextId++, content, kind };
    return new Promise((resolve, reject) => worker.send(req, { resolve, reject }));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  /** An idle worker, else a new one while the pool has room, else the one with the least work queued. */
  private leastBusy(): PoolWorker {
    const idle = this.workers.find((w) => w.pending.size === 0);
    if (idle) return idle;
    if (this.workers.length < this.size) {
      const w = new PoolWorker(this.embedder, this.idleMs, (gone) => this.workers.splice(this.workers.indexOf(gone) >>> 0, 1));
      this.workers.push(w);
      return w;
    }
    return this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}
