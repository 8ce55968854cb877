// The EventLog port: streams numbered per workspace and stream, read after a seq, woken on append, seen by another handle.
import { describe, expect, it } from "vitest";
import { StreamMoved } from "../../../src/ports/event-log.ts";
import { T0 } from "../../helpers/documents.ts";
import { storeHandles, type StoreFactory } from "./support.ts";

const ev = (type: string, data: unknown, at = T0) => ({ type, at, data });

export function runEventLogSuite(name: string, makeStore: StoreFactory): void {
  describe(`EventLog conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);

    it("numbers each stream from 1 without gaps and reads after a seq, oldest first, within a limit", async () => {
      const { store, a } = await twoWorkspaces();
      const first = await store.streams.appendStream(a, "run-1", [ev("started", { n: 1 }), ev("step", [1, "two"])]);
      await store.streams.appendStream(a, "run-2", [ev("started", null)]);
      const third = await store.streams.appendStream(a, "run-1", [ev("done", { ok: true }, T0 + 5)]);
      expect([...first, ...third].map((e) => [e.stream, e.seq, e.type])).toEqual([
        ["run-1", 1, "started"],
        ["run-1", 2, "step"],
        ["run-1", 3, "done"],
      ]);
      expect(await store.streams.readStream(a, "run-1", 0, 10)).toEqual([
        { stream: "run-1", seq: 1, type: "started", at: T0, data: { n: 1 } },
        { stream: "run-1", seq: 2, type: "step", at: T0, data: [1, "two"] },
        { stream: "run-1", seq: 3, type: "done", at: T0 + 5, data: { ok: true } },
      ]);
      expect((await store.streams.readStream(a, "run-1", 1, 1)).map((e) => e.seq)).toEqual([2]);
      expect(await store.streams.readStream(a, "run-1", 3, 10)).toEqual([]);
      expect((await store.streams.readStream(a, "run-2", 0, 10)).map((e) => e.seq)).toEqual([1]);
      expect(await store.streams.readStream(a, "nothing", 0, 10)).toEqual([]);
    });

    it("keeps workspaces apart: the same stream id in another workspace is another stream", async () => {
      const { store, a, b } = await twoWorkspaces();
      await store.streams.appendStream(a, "run", [ev("secret", "alpha only")]);
      expect(await store.streams.readStream(b, "run", 0, 10)).toEqual([]);
      expect((await store.streams.appendStream(b, "run", [ev("mine", 1)]))[0]!.seq).toBe(1);
      expect((await store.streams.readStream(a, "run", 0, 10)).map((e) => e.data)).toEqual(["alpha only"]);
    });

    it("wakes a subscriber of the stream after each append through the handle, and not after unsubscribing", async () => {
      const { store, a, b } = await twoWorkspaces();
      let wakes = 0;
      const stop = store.streams.subscribeStream(a, "run", () => wakes++);
      await store.streams.appendStream(a, "run", [ev("one", 1), ev("two", 2)]);
      await store.streams.appendStream(a, "other", [ev("x", 1)]);
      await store.streams.appendStream(b, "run", [ev("x", 1)]);
      expect(wakes).toBe(1);
      stop();
      await store.streams.appendStream(a, "run", [ev("three", 3)]);
      expect(wakes).toBe(1);
    });

    it("appends on condition of the stream's last seq: a stream that moved on refuses with StreamMoved, writing nothing", async () => {
      const one = await fresh();
      const ws = (await one.workspaces.ensureWorkspace("alpha", T0)).id;
      const after = (afterSeq: number) => ({ afterSeq });
      expect((await one.streams.appendStream(ws, "run", [ev("a", 1)], after(0))).map((e) => e.seq)).toEqual([1]);
      const two = await fresh(one); // another replica, deciding on what it read
      await two.streams.appendStream(ws, "run", [ev("b", 2), ev("c", 3)], after(1));
      const late = one.streams.appendStream(ws, "run", [ev("late", 4), ev("later", 5)], after(1));
      await expect(late).rejects.toBeInstanceOf(StreamMoved);
      await expect(late).rejects.toMatchObject({ expected: 1, found: 3 });
      await expect(one.streams.appendStream(ws, "fresh", [ev("x", 0)], after(2))).rejects.toMatchObject({ found: 0 });
      expect((await one.streams.readStream(ws, "run", 0, 10)).map((e) => e.type)).toEqual(["a", "b", "c"]);
      expect(await one.streams.readStream(ws, "fresh", 0, 10)).toEqual([]);
      expect((await one.streams.appendStream(ws, "run", [ev("d", 4)], after(3)))[0]!.seq).toBe(4);
    });

    it("appends on condition of some types: only an event of those after the seq refuses it", async () => {
      const one = await fresh();
      const ws = (await one.workspaces.ensureWorkspace("alpha", T0)).id;
      await one.streams.appendStream(ws, "run", [ev("state", 1), ev("token", 2)]);
      const two = await fresh(one);
      await two.streams.appendStream(ws, "run", [ev("token", 3), ev("token", 4)]);
      const states = (afterSeq: number) => ({ afterSeq, types: ["state", "approval"] });
      const decided = await one.streams.appendStream(ws, "run", [ev("state", 5)], states(2));
      expect(decided.map((e) => e.seq)).toEqual([5]);
      await expect(two.streams.appendStream(ws, "run", [ev("approval", 6)], states(4))).rejects.toMatchObject({
        expected: 4,
        found: 5,
      });
      await expect(two.streams.appendStream(ws, "run", [ev("state", 6)], states(9))).rejects.toBeInstanceOf(
        StreamMoved,
      );
      await expect(two.streams.appendStream(ws, "empty", [ev("state", 0)], states(1))).rejects.toBeInstanceOf(
        StreamMoved,
      );
      expect((await one.streams.readStream(ws, "run", 0, 10)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect((await two.streams.appendStream(ws, "run", [ev("approval", 6)], states(5)))[0]!.seq).toBe(6);
    });

    it("continues a stream another handle wrote, and reads what it appends", async () => {
      const one = await fresh();
      const ws = (await one.workspaces.ensureWorkspace("alpha", T0)).id;
      await one.streams.appendStream(ws, "run", [ev("a", 1)]);
      const two = await fresh(one);
      expect((await two.streams.appendStream(ws, "run", [ev("b", 2)]))[0]!.seq).toBe(2);
      expect((await one.streams.readStream(ws, "run", 0, 10)).map((e) => [e.seq, e.data])).toEqual([
        [1, 1],
        [2, 2],
      ]);
    });
  });
}
