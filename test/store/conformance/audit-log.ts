// The AuditLog port: one hash chain per workspace, paged by seq, continued by any handle.
import { describe, expect, it } from "vitest";
import { GENESIS_HASH, verifyChain } from "../../../src/domain/audit/event-hash.ts";
import { T0 } from "../../helpers/documents.ts";
import { draft, storeHandles, type StoreFactory } from "./support.ts";

export function runAuditLogSuite(name: string, makeStore: StoreFactory): void {
  describe(`AuditLog conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);
    describe("audit events", () => {
      it("chains events per workspace and pages them by seq", async () => {
        const { store, a, b } = await twoWorkspaces();
        const first = await store.audit.appendEvents(a, [draft("one", { z: 1, a: 2 }), draft("two", null, T0 + 1)]);
        await store.audit.appendEvents(b, [draft("other", 1)]);
        const third = await store.audit.appendEvents(a, [
          { ...draft("three", [1]), actorId: "alice", trajectoryId: "traj_1" },
        ]);
        expect([...first, ...third].map((e) => e.seq)).toEqual([1, 2, 3]);
        expect(first[0]!.prevHash).toBe(GENESIS_HASH);
        expect(first[1]!.prevHash).toBe(first[0]!.hash);
        expect(third[0]!.prevHash).toBe(first[1]!.hash);
        expect(first[0]!.payload).toBe('{"a":2,"z":1}');
        const all = await store.audit.listEvents(a, { limit: 100 });
        expect(all.map((e) => e.type)).toEqual(["one", "two", "three"]);
        expect(verifyChain(all)).toBeNull();
        expect((await store.audit.listEvents(a, { afterSeq: 1, limit: 1 })).map((e) => e.seq)).toEqual([2]);
        expect((await store.audit.listEvents(a, { order: "desc", limit: 2 })).map((e) => e.seq)).toEqual([3, 2]);
        expect((await store.audit.listEvents(a, { order: "desc", afterSeq: 2, limit: 10 })).map((e) => e.seq)).toEqual([
          1,
        ]); // before seq 2, walking back
        expect(
          (await store.audit.listEvents(a, { order: "desc", limit: 10, types: ["three", "one"] })).map((e) => e.seq),
        ).toEqual([3, 1]);
        expect((await store.audit.listEvents(a, { limit: 10, types: ["three", "one"] })).map((e) => e.seq)).toEqual([
          1, 3,
        ]);
        expect((await store.audit.listEvents(a, { limit: 10, actorId: "alice" })).map((e) => e.seq)).toEqual([3]);
        expect((await store.audit.listEvents(a, { limit: 10, trajectoryId: "traj_1" })).map((e) => e.seq)).toEqual([3]);
        expect(
          (await store.audit.listEvents(a, { limit: 10, since: T0 + 1, until: T0 + 2 })).map((e) => e.seq),
        ).toEqual([2]);
        expect((await store.audit.listEvents(b, { limit: 10 })).map((e) => [e.seq, e.prevHash])).toEqual([
          [1, GENESIS_HASH],
        ]);
      });

      it("names events with version 7 UUIDs, a later millisecond's after an earlier one's", async () => {
        const { store, a } = await twoWorkspaces();
        const [first] = await store.audit.appendEvents(a, [draft("one", 1)]);
        const since = Date.now();
        await expect.poll(() => Date.now()).toBeGreaterThan(since);
        const [second] = await store.audit.appendEvents(a, [draft("two", 2)]);
        const v7 = /^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
        expect(first!.id).toMatch(v7);
        expect(second!.id).toMatch(v7);
        expect(second!.id > first!.id).toBe(true);
      });

      it("continues the audit chain written by the other handle", async () => {
        const one = await fresh();
        const ws = (await one.workspaces.ensureWorkspace("alpha", T0)).id;
        await one.audit.appendEvents(ws, [draft("a", 1)]);
        const two = await fresh(one);
        await two.audit.appendEvents(ws, [draft("b", 2)]);
        await one.audit.appendEvents(ws, [draft("c", 3)]);
        const events = await two.audit.listEvents(ws, { limit: 10 });
        expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
        expect(verifyChain(events)).toBeNull();
      });
    });
  });
}
