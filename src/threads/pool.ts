// Work off the request loop on worker threads (ingest's analysis, answer and pack plans, SQLite's writes). Workers
// start on demand, up to `size`, hold the process open only while they have work in flight, and exit after `idleMs`
// without work (Infinity: never): a burst pays the start once, a service at rest does not keep their memory. Imports
// nothing of the service, so every layer and adapter may use it.
import { parentPort, Worker, workerData } from "node:worker_threads";

interface Envelope<T> {
  id: number;
  body: T;
}
type Reply<R> = { id: number; body: R } | { id: number; error: string };

interface Pending<R> {
  resolve: (r: R) => void;
  reject: (err: Error) => void;
}

const IDLE_MS = 15_000;

/** The thread itself failed (it could not start, crashed or was stopped), as against a request its handler refused. */
export class ThreadGone extends Error {}

/** The module a worker runs, beside `base`: its .ts source when the service runs from sources (tests, bench), else the built .js. */
export function threadModule(name: string, base: string): URL {
  return new URL(`./${name}.${base.endsWith(".ts") ? "ts" : "js"}`, base);
}

class PoolWorker<Q, R> {
  readonly pending = new Map<number, Pending<R>>();
  private readonly worker: Worker;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    module: URL,
    data: unknown,
    private readonly idleMs: number,
    private readonly onGone: (w: PoolWorker<Q, R>) => void,
  ) {
    const typescript = module.pathname.endsWith(".ts");
    this.worker = new Worker(new URL("./entry.js", import.meta.url), {
      workerData: { typescript, module: module.href, data },
    });
    this.worker.unref();
    this.worker.on("message", (reply: Reply<R>) => this.settle(reply));
    const fail = (err: Error) => {
      const gone = err instanceof ThreadGone ? err : new ThreadGone(err.message);
      onGone(this);
      for (const p of this.pending.values()) p.reject(gone);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new ThreadGone(`worker thread exited with code ${code}`)));
  }

  send(id: number, body: Q, pending: Pending<R>): void {
    clearTimeout(this.idleTimer);
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(id, pending);
    this.worker.postMessage({ id, body } satisfies Envelope<Q>);
  }

  terminate(): Promise<number> {
    clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }

  private settle(reply: Reply<R>): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) {
      this.worker.unref();
      if (this.idleMs !== Infinity)
        this.idleTimer = setTimeout(() => {
          this.onGone(this);
          void this.terminate();
        }, this.idleMs).unref();
    }
    if ("error" in reply) p.reject(new Error(reply.error));
    else p.resolve(reply.body);
  }
}

/** Requests of type Q answered with R by `module`'s `serveThread` handler, on up to `size` threads. */
export class ThreadPool<Q, R> {
  private readonly workers: PoolWorker<Q, R>[] = [];
  private nextId = 0;

  /** `data` reaches the thread as serveThread's `data` (structured-cloned; shared memory stays shared). */
  constructor(
    private readonly module: URL,
    private readonly data: unknown,
    private readonly size: number,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Workers alive now. */
  get running(): number {
    return this.workers.length;
  }

  run(body: Q): Promise<R> {
    const worker = this.leastBusy();
    const id = this.nextId++;
    return new Promise((resolve, reject) => worker.send(id, body, { resolve, reject }));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  /** An idle worker, else a new one while the pool has room, else the one with the least work queued. */
  private leastBusy(): PoolWorker<Q, R> {
    const idle = this.workers.find((w) => w.pending.size === 0);
    if (idle) return idle;
    if (this.workers.length < this.size) {
      const w = new PoolWorker<Q, R>(this.module, this.data, this.idleMs, (gone) =>
        this.workers.splice(this.workers.indexOf(gone) >>> 0, 1),
      );
      this.workers.push(w);
      return w;
    }
    return this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}

/** Inside a worker thread: answers each request with `handle`, whose `transfer` buffers move instead of being copied. */
export function serveThread<Q, R>(
  handle: (body: Q, data: unknown) => Promise<{ body: R; transfer?: ArrayBuffer[] }>,
): void {
  const port = parentPort!;
  const data = (workerData as { data: unknown }).data;
  port.on("message", ({ id, body }: Envelope<Q>) => {
    void handle(body, data).then(
      (r) => port.postMessage({ id, body: r.body } satisfies Reply<R>, r.transfer ?? []),
      (err: Error) => port.postMessage({ id, error: err.message } satisfies Reply<R>),
    );
  });
}
