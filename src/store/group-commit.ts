// Group commit for either engine: writes asked for while a batch commits wait and go together in the next, one
// transaction for all of them (a commit's cost, the WAL pages or the fsync, is paid once per batch rather than per
// write). Each write runs in a savepoint of its own, so one that fails is rolled back alone and rejects its caller; the
// others commit. A caller hears back only once its batch has committed. One batch at a time: writes commit in the order
// they were asked for, and a write asked for when nothing is committing goes at the end of the loop's turn (no timer),
// with the writes asked for in the same turn (a turn's small ingests end together: threads/turn-gate.ts).

/** What one write of a batch came to. */
export type Outcome<R> = { ok: R } | { error: Error };

interface Waiting<W, R> {
  write: W;
  resolve: (r: R) => void;
  reject: (err: Error) => void;
}

export class GroupCommit<W, R> {
  private readonly queue: Waiting<W, R>[] = [];
  private committing = false;
  private readonly onSettled: (() => void)[] = [];

  constructor(
    /** Commits the batch in one transaction; answers an outcome per write, in order (rejects: all of them failed). */
    private readonly commit: (batch: readonly W[]) => Promise<Outcome<R>[]>,
    /** A write's size (rows), and the most a batch holds, so one batch never holds the write lock for long. */
    private readonly sizeOf: (w: W) => number,
    private readonly maxSize = 256,
  ) {}

  /** Resolves once the write's batch has committed; rejects with its own failure or the batch's. */
  submit(write: W): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (this.committing) return;
      this.committing = true;
      setImmediate(() => void this.drain());
    });
  }

  /** Resolves once every write asked for so far has been answered (a store closes after, not under, its last batch). */
  settled(): Promise<void> {
    return this.committing ? new Promise((resolve) => this.onSettled.push(resolve)) : Promise.resolve();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          const outcomes = await this.commit(batch.map((w) => w.write));
          batch.forEach((w, i) => {
            const o = outcomes[i];
            if (o && "ok" in o) w.resolve(o.ok);
            else w.reject(o?.error ?? new Error("group commit: no outcome for a write"));
          });
        } catch (err) {
          for (const w of batch) w.reject(err as Error);
        }
      }
    } finally {
      this.committing = false;
      for (const resolve of this.onSettled.splice(0)) resolve();
    }
  }

  /** The oldest writes up to maxSize rows, and at least one whatever its size. */
  private take(): Waiting<W, R>[] {
    let size = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || size + this.sizeOf(this.queue[n]!.write) <= this.maxSize))
      size += this.sizeOf(this.queue[n++]!.write);
    return this.queue.splice(0, n);
  }
}
