// Per-workspace layer counters: summed in memory per hour bucket and flushed to the store in batches, not per request.
import type { CognitiveStore, CounterIncrement, CounterQuery, CounterTotal } from "../ports/cognitive.ts";
import { BatchedSums } from "./batched-sums.ts";

export const HOUR_MS = 3_600_000;
const SEP = "\u0000";

/** Counter totals of one read: persisted buckets plus what is still pending in memory. */
export class CounterRegistry {
  private readonly sums: BatchedSums;

  constructor(
    private readonly store: Pick<CognitiveStore, "addCounters" | "counterTotals">,
    private readonly now: () => number,
    log: (msg: string) => void = () => {},
  ) {
    this.sums = new BatchedSums(
      (batch) => store.addCounters([...batch].map(([key, n]) => toIncrement(key, n))),
      "cognitive counters",
      log,
    );
  }

  add(workspaceId: string, layer: string, counter: string, n = 1): void {
    const hour = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    this.sums.add([workspaceId, hour, layer, counter].join(SEP), n);
  }

  /** Writes the pending increments in one transaction; on failure they stay pending for the next try. */
  flush(): Promise<void> {
    return this.sums.flush();
  }

  startFlushing(ms?: number): void {
    this.sums.startFlushing(ms);
  }

  stop(): Promise<void> {
    return this.sums.stop();
  }

  /** Totals since/until (hour buckets) per workspace, layer and counter, including increments not yet flushed. */
  async totals(q: CounterQuery = {}): Promise<CounterTotal[]> {
    const sums = new Map<string, CounterTotal>();
    const addTotal = (t: CounterTotal) => {
      const key = [t.workspaceId, t.layer, t.counter].join(SEP);
      const seen = sums.get(key);
      if (seen) seen.n += t.n;
      else sums.set(key, { ...t });
    };
    for (const t of await this.store.counterTotals(q)) addTotal(t);
    for (const [key, n] of this.sums.entries()) {
      const inc = toIncrement(key, n);
      if (q.workspaceId !== undefined && inc.workspaceId !== q.workspaceId) continue;
      if (inc.hour < (q.since ?? 0) || inc.hour >= (q.until ?? Number.MAX_SAFE_INTEGER)) continue;
      addTotal({ workspaceId: inc.workspaceId, layer: inc.layer, counter: inc.counter, n: inc.n });
    }
    return [...sums.values()].sort(
      (a, b) =>
        a.workspaceId.localeCompare(b.workspaceId) ||
        a.layer.localeCompare(b.layer) ||
        a.counter.localeCompare(b.counter),
    );
  }

  get flushFailures(): number {
    return this.sums.flushFailures;
  }
}

function toIncrement(key: string, n: number): CounterIncrement {
  const [workspaceId, hour, layer, counter] = key.split(SEP) as [string, string, string, string];
  return { workspaceId, hour: Number(hour), layer, counter, n };
}
