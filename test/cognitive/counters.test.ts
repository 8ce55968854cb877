// The counter registry: in-memory sums per hour, flushed in batches, read back with what is still pending.
import { afterEach, describe, expect, it } from "vitest";
import { CounterRegistry, HOUR_MS } from "../../src/cognitive/counters.ts";
import type { CounterIncrement, Store } from "../../src/ports.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function memoryStore(): Store {
  const s = openSqliteStore(":memory:");
  stores.push(s);
  return s;
}

describe("CounterRegistry", () => {
  it("batches increments: nothing is written until a flush, yet reads see them", () => {
    const store = memoryStore();
    let now = 5 * HOUR_MS + 10;
    const reg = new CounterRegistry(store, () => now);
    reg.add("w1", "viveka", "injection_flagged");
    reg.add("w1", "viveka", "injection_flagged", 2);
    now += HOUR_MS;
    reg.add("w2", "manas", "queries_expanded");
    expect(store.counterTotals({})).toEqual([]);
    expect(reg.totals()).toEqual([
      { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 3 },
      { workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 1 },
    ]);
    expect(reg.totals({ since: 6 * HOUR_MS })).toEqual([{ workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 1 }]);
    reg.flush();
    expect(store.counterTotals({ workspaceId: "w1" })).toEqual([{ workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 3 }]);
    reg.add("w1", "viveka", "injection_flagged");
    expect(reg.totals({ workspaceId: "w1" })).toEqual([{ workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 4 }]);
  });

  it("a failed flush keeps the increments for the next one", () => {
    const store = memoryStore();
    let fail = true;
    const written: CounterIncrement[] = [];
    const flaky: Store = Object.assign(Object.create(store) as Store, {
      addCounters(rows: readonly CounterIncrement[]) {
        if (fail) throw new Error("disk full");
        written.push(...rows);
      },
    });
    const logs: string[] = [];
    const reg = new CounterRegistry(flaky, () => 0, (m) => logs.push(m));
    reg.add("w", "atman", "scores_repaired", 2);
    reg.flush();
    expect(reg.flushFailures).toBe(1);
    expect(logs[0]).toMatch(/disk full/);
    fail = false;
    reg.add("w", "atman", "scores_repaired");
    reg.flush();
    expect(written).toEqual([{ workspaceId: "w", hour: 0, layer: "atman", counter: "scores_repaired", n: 3 }]);
  });
});

describe("BatchedSums", () => {
  it("past the size bound it writes once, after the current turn of the event loop, not inside the call that filled it", async () => {
    const { BatchedSums } = await import("../../src/cognitive/batched-sums.ts");
    const batches: number[] = [];
    const sums = new BatchedSums((b) => batches.push(b.size), "test");
    for (let i = 0; i < 2500; i++) sums.add(`k${i}`, 1);
    expect(batches).toEqual([]);
    await new Promise(setImmediate);
    expect(batches).toEqual([2500]);
    sums.add("late", 1);
    sums.stop();
    expect(batches).toEqual([2500, 1]);
  });
});
