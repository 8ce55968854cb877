// The counter registry: in-memory sums per hour, flushed in batches, read back with what is still pending.
import { afterEach, describe, expect, it } from "vitest";
import { CounterRegistry, HOUR_MS } from "../../src/cognitive/counters.ts";
import type { CognitiveStore, CounterIncrement } from "../../src/ports/cognitive.ts";
import type { Store } from "../../src/ports/store.ts";
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
  it("batches increments: nothing is written until a flush, yet reads see them", async () => {
    const store = memoryStore();
    let now = 5 * HOUR_MS + 10;
    const reg = new CounterRegistry(store.cognitive, () => now);
    reg.add("w1", "viveka", "injection_flagged");
    reg.add("w1", "viveka", "injection_flagged", 2);
    now += HOUR_MS;
    reg.add("w2", "manas", "queries_expanded");
    expect(await store.cognitive.counterTotals({})).toEqual([]);
    expect(await reg.totals()).toEqual([
      { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 3 },
      { workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 1 },
    ]);
    expect(await reg.totals({ since: 6 * HOUR_MS })).toEqual([
      { workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 1 },
    ]);
    await reg.flush();
    expect(await store.cognitive.counterTotals({ workspaceId: "w1" })).toEqual([
      { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 3 },
    ]);
    reg.add("w1", "viveka", "injection_flagged");
    expect(await reg.totals({ workspaceId: "w1" })).toEqual([
      { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 4 },
    ]);
  });

  it("a failed flush keeps the increments for the next one", async () => {
    const store = memoryStore();
    let fail = true;
    const written: CounterIncrement[] = [];
    const flaky: CognitiveStore = Object.assign(Object.create(store.cognitive) as CognitiveStore, {
      addCounters(rows: readonly CounterIncrement[]) {
        if (fail) throw new Error("disk full");
        written.push(...rows);
      },
    });
    const logs: string[] = [];
    const reg = new CounterRegistry(
      flaky,
      () => 0,
      (m) => logs.push(m),
    );
    reg.add("w", "atman", "scores_repaired", 2);
    await reg.flush();
    expect(reg.flushFailures).toBe(1);
    expect(logs[0]).toMatch(/disk full/);
    fail = false;
    reg.add("w", "atman", "scores_repaired");
    await reg.flush();
    expect(written).toEqual([{ workspaceId: "w", hour: 0, layer: "atman", counter: "scores_repaired", n: 3 }]);
  });
});

describe("BatchedSums", () => {
  it("past the size bound it writes once, after the current turn of the event loop, not inside the call that filled it", async () => {
    const { BatchedSums } = await import("../../src/cognitive/batched-sums.ts");
    const batches: number[] = [];
    const sums = new BatchedSums(async (b) => void batches.push(b.size), "test");
    for (let i = 0; i < 2500; i++) sums.add(`k${i}`, 1);
    expect(batches).toEqual([]);
    await new Promise(setImmediate);
    expect(batches).toEqual([2500]);
    sums.add("late", 1);
    await sums.stop();
    expect(batches).toEqual([2500, 1]);
  });
});
