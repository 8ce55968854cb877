// Per-workspace layer counters: summed in memory per hour bucket and flushed to the store in batches, not per request.
import type { CounterIncrement, CounterQuery, CounterTotal, Store } from "../ports.ts";

export const HOUR_MS = 3_600_000;
const SEP = "\u0000";
/** Pending distinct keys that force a flush before the timer (bounds memory). */
const FLUSH_AT_KEYS = 2_000;

/** Counter totals of one read: persisted buckets plus what is still pending in memory. */
export class CounterRegistry {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  add(workspaceId: string, layer: string, counter: string, n = 1): void {
    if (n === 0) return;
    const hour = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    const key = [workspaceId, hour, layer, counter].join(SEP);
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
    if (this.pending.size >= FLUSH_AT_KEYS) this.flush();
  }

  /** Writes the pending increments in one transaction; on failure they stay pending for the next try. */
  flush(): void {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      this.store.addCounters([...batch].map(([key, n]) => toIncrement(key, n)));
    } catch (err) {
      this.failures++;
      this.log(`cognitive counters: flush failed (${(err as Error).message}); kept in memory`);
      for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
    }
  }

  /** Flushes every `ms` in the background (the server); the timer never keeps the process alive. */
  startFlushing(ms = 10_000): void {
    this.timer ??= setInterval(() => this.flush(), ms).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  /** Totals since/until (hour buckets) per workspace, layer and counter, including increments not yet flushed. */
  totals(q: CounterQuery = {}): CounterTotal[] {
    const sums = new Map<string, CounterTotal>();
    const addTotal = (t: CounterTotal) => {
      const key = [t.workspaceId, t.layer, t.counter].join(SEP);
      const seen = sums.get(key);
      if (seen) seen.n += t.n;
      else sums.set(key, { ...t });
    };
    for (const t of this.store.counterTotals(q)) addTotal(t);
    for (const [key, n] of this.pending) {
      const inc = toIncrement(key, n);
      if (q.workspaceId !== undefined && inc.workspaceId !== q.workspaceId) continue;
      if (inc.hour < (q.since ?? 0) || inc.hour >= (q.until ?? Number.MAX_SAFE_INTEGER)) continue;
      addTotal({ workspaceId: inc.workspaceId, layer: inc.layer, counter: inc.counter, n: inc.n });
    }
    return [...sums.values()].sort((a, b) => a.workspaceId.localeCompare(b.workspaceId) || a.layer.localeCompare(b.layer) || a.counter.localeCompare(b.counter));
  }

  get flushFailures(): number {
    return this.failures;
  }
}

function toIncrement(key: string, n: number): CounterIncrement {
  const [workspaceId, hour, layer, counter] = key.split(SEP) as [string, string, string, string];
  return { workspaceId, hour: Number(hour), layer, counter, n };
}
