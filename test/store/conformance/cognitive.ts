// The CognitiveStore port: hourly counters, impressions, durable figures and process() traces.
import { describe, expect, it } from "vitest";
import { storeHandles, type StoreFactory } from "./support.ts";

export function runCognitiveStoreSuite(name: string, makeStore: StoreFactory): void {
  describe(`CognitiveStore conformance: ${name}`, () => {
    const { fresh } = storeHandles(makeStore);
    describe("cognitive counters and records", () => {
      const HOUR = 3_600_000;
      it("sums increments per hour bucket and reads totals per workspace since a time", async () => {
        const store = await fresh();
        await store.cognitive.addCounters([
          { workspaceId: "w1", hour: 0, layer: "viveka", counter: "injection_flagged", n: 2 },
          { workspaceId: "w1", hour: 0, layer: "viveka", counter: "injection_flagged", n: 3 },
          { workspaceId: "w1", hour: HOUR, layer: "viveka", counter: "injection_flagged", n: 1 },
          { workspaceId: "w2", hour: HOUR, layer: "manas", counter: "queries_expanded", n: 4 },
        ]);
        await store.cognitive.addCounters([
          { workspaceId: "w1", hour: HOUR, layer: "viveka", counter: "injection_flagged", n: 10 },
        ]);
        expect(await store.cognitive.counterTotals({})).toEqual([
          { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 16 },
          { workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 4 },
        ]);
        expect(await store.cognitive.counterTotals({ since: HOUR, workspaceId: "w1" })).toEqual([
          { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 11 },
        ]);
        expect(await store.cognitive.counterTotals({ until: HOUR })).toEqual([
          { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 5 },
        ]);
        expect(await store.cognitive.counterTotals({ since: 2 * HOUR })).toEqual([]);
      });

      it("sums chitta's impressions per workspace and chunk, listed per workspace smallest first, visible to another handle", async () => {
        const one = await fresh();
        await one.cognitive.addImpressions([
          { workspaceId: "w1", chunkHash: "sha256:a", n: 2 },
          { workspaceId: "w2", chunkHash: "sha256:a", n: 1 },
          { workspaceId: "w1", chunkHash: "sha256:b", n: 1 },
        ]);
        await one.cognitive.addImpressions([{ workspaceId: "w1", chunkHash: "sha256:b", n: 4 }]);
        await one.cognitive.addImpressions([]);
        expect(await (await fresh(one)).cognitive.listImpressions()).toEqual([
          { workspaceId: "w1", chunkHash: "sha256:a", n: 2 },
          { workspaceId: "w1", chunkHash: "sha256:b", n: 5 },
          { workspaceId: "w2", chunkHash: "sha256:a", n: 1 },
        ]);
      });

      it("keeps records by kind, newest first, with their JSON payloads, visible to another handle", async () => {
        const one = await fresh();
        await one.cognitive.appendCognitiveRecords([
          { kind: "tuner_decision", workspaceId: null, at: 10, payload: { layer: "manas", kept: true } },
          { kind: "ablation", workspaceId: null, at: 20, payload: { uplift: { viveka: { x: 0.01 } } } },
          { kind: "tuner_decision", workspaceId: "w1", at: 30, payload: { layer: "chitta", kept: false } },
        ]);
        const two = await fresh(one);
        const decisions = await two.cognitive.listCognitiveRecords({ kind: "tuner_decision", limit: 10 });
        expect(decisions.map((d) => [d.at, d.workspaceId, d.payload])).toEqual([
          [30, "w1", { layer: "chitta", kept: false }],
          [10, null, { layer: "manas", kept: true }],
        ]);
        expect(await two.cognitive.listCognitiveRecords({ kind: "tuner_decision", since: 11, limit: 10 })).toHaveLength(
          1,
        );
        expect((await two.cognitive.listCognitiveRecords({ kind: "tuner_decision", limit: 1 }))[0]!.at).toBe(30);
        expect(await two.cognitive.listCognitiveRecords({ kind: "nothing", limit: 10 })).toEqual([]);
      });

      it("keeps each workspace's newest process traces, readable only in their workspace and from another handle", async () => {
        const one = await fresh();
        for (const [i, ws] of (["w1", "w1", "w2", "w1"] as const).entries())
          await one.cognitive.putTrace(
            ws,
            `trace_${i}`,
            100 + i,
            { trace_id: `trace_${i}`, steps: [{ layer: "manas", n: i }] },
            2,
          );
        const two = await fresh(one);
        expect(await two.cognitive.getTrace("w1", "trace_0")).toBeUndefined(); // w1's third trace pushed its first out
        expect(await two.cognitive.getTrace("w1", "trace_1")).toEqual({
          trace_id: "trace_1",
          steps: [{ layer: "manas", n: 1 }],
        });
        expect(await two.cognitive.getTrace("w1", "trace_3")).toEqual({
          trace_id: "trace_3",
          steps: [{ layer: "manas", n: 3 }],
        });
        expect(await two.cognitive.getTrace("w2", "trace_2")).toEqual({
          trace_id: "trace_2",
          steps: [{ layer: "manas", n: 2 }],
        }); // another workspace's traces do not count against w2
        expect(await two.cognitive.getTrace("w2", "trace_1")).toBeUndefined(); // another workspace's trace is not there
        expect(await two.cognitive.getTrace("w1", "trace_nope")).toBeUndefined();
      });
    });
  });
}
