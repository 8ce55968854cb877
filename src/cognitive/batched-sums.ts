// Keyed increments summed in memory and written in batches (on a timer, right after the request that passes a size
// bound, at stop), never inside a request; a failed write keeps them pending for the next try. Counters and chitta's
// impressions both persist this way.

/** Pending distinct keys that force a write before the timer (bounds memory). */
const WRITE_AT_KEYS = 2_000;

export class BatchedSums {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;
  private failures = 0;

  constructor(
    /** Writes one batch in one transaction; throws to keep it pending. */
    private readonly write: (batch: ReadonlyMap<string, number>) => Promise<void>,
    private readonly what: string,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  add(key: string, n: number): void {
    if (n === 0) return;
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
    // Written right after the request that filled the batch, not inside it: a write transaction would be its latency.
    if (this.pending.size >= WRITE_AT_KEYS)
      this.soon ??= setImmediate(() => {
        this.soon = null;
        void this.flush();
      });
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.write(batch);
    } catch (err) {
      this.failures++;
      this.log(`${this.what}: flush failed (${(err as Error).message}); kept in memory`);
      for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
    }
  }

  /** Flushes every `ms` in the background (the server); the timer never keeps the process alive. */
  startFlushing(ms = 10_000): void {
    this.timer ??= setInterval(() => void this.flush(), ms).unref();
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearImmediate(this.soon);
    this.timer = null;
    this.soon = null;
    return this.flush();
  }

  /** What is not written yet. */
  entries(): IterableIterator<[string, number]> {
    return this.pending.entries();
  }

  get flushFailures(): number {
    return this.failures;
  }
}
