// The RecordStore port: insert-once records with side effects, keyset paging, compare-and-set transitions.
import { describe, expect, it } from "vitest";
import type { RecordRow } from "../../../src/ports/records.ts";
import type { Store } from "../../../src/ports/store.ts";
import { prepareDocument as prepare, T0 } from "../../helpers/documents.ts";
import { draft, storeHandles, type StoreFactory } from "./support.ts";

export function runRecordStoreSuite(name: string, makeStore: StoreFactory): void {
  describe(`RecordStore conformance: ${name}`, () => {
    const { twoWorkspaces } = storeHandles(makeStore);
    describe("knowledge records", () => {
      const rec = (id: string, over: Partial<RecordRow> = {}): RecordRow => ({
        id,
        kind: "decision",
        group: "eng",
        parentId: null,
        status: null,
        createdAt: T0,
        body: { id },
        ...over,
      });

      it("inserts once per id: a repeat keeps the first body and writes its side effects only the first time", async () => {
        const { store, a } = await twoWorkspaces();
        const { doc, chunks } = prepare("decisions/eng/d1.md", "# D1\n\nUse SQLite.\n");
        const first = await store.records.insertRecord(a, rec("d1"), {
          events: [draft("decision.recorded", { ref: "d1" })],
          document: { doc, chunks },
          records: [rec("p1", { kind: "proposal", parentId: "d1", status: "pending" })],
        });
        const again = await store.records.insertRecord(a, rec("d1", { body: { id: "d1", changed: true } }), {
          events: [draft("decision.recorded", { ref: "d1" })],
          records: [rec("p2", { parentId: "d1" })],
        });
        expect((await store.records.childRecords(a, "d1")).map((r) => [r.id, r.status])).toEqual([["p1", "pending"]]);
        expect(first.created).toBe(true);
        expect(again).toEqual({ record: first.record, created: false });
        expect(again.record.body).toEqual({ id: "d1" });
        expect(await store.audit.listEvents(a, { limit: 10 })).toHaveLength(1);
        expect((await store.documents.documentChunks(a, "decisions/eng/d1.md")).map((c) => c.text).join("")).toContain(
          "Use SQLite.",
        );
      });

      it("a side effect that fails takes the whole write back: no record, document, further record or event", async () => {
        const { store, a } = await twoWorkspaces();
        const { doc, chunks } = prepare("decisions/eng/d1.md", "# D1\n\nUse SQLite.\n");
        const write = store.records.insertRecord(a, rec("d1"), {
          document: { doc, chunks },
          // The second further record cannot be serialised (a BigInt body): it fails after the rows before it are written.
          records: [rec("p1", { parentId: "d1" }), rec("p2", { parentId: "d1", body: { n: 1n } })],
          events: [draft("decision.recorded", { ref: "d1" })],
        });
        await expect(write).rejects.toThrow(/BigInt/);
        expect(await store.records.getRecord(a, "d1")).toBeUndefined();
        expect(await store.records.getRecord(a, "p1")).toBeUndefined();
        expect(await store.documents.getDocument(a, "decisions/eng/d1.md")).toBeUndefined();
        expect(await store.audit.listEvents(a, { limit: 10 })).toEqual([]);
        expect((await store.records.insertRecord(a, rec("d1"))).created).toBe(true);
      });

      it("pages by insertion order in both directions, filtered by kind, group, status and childlessness", async () => {
        const { store, a, b } = await twoWorkspaces();
        for (const id of ["d1", "d2", "d3"])
          await store.records.insertRecord(a, rec(id, { group: id === "d2" ? "ops" : "eng" }));
        await store.records.insertRecord(a, rec("s1", { kind: "shravan", group: null }));
        await store.records.insertRecord(a, rec("s2", { kind: "shravan", group: null }));
        await store.records.insertRecord(a, rec("m1", { kind: "manan", group: null, parentId: "s1" }));
        await store.records.insertRecord(b, rec("d9"));
        const ids = async (q: Parameters<Store["records"]["listRecords"]>[1], ws = a) =>
          (await store.records.listRecords(ws, q)).map((r) => r.id);
        expect(await ids({ kinds: ["decision"], order: "desc", limit: 10 })).toEqual(["d3", "d2", "d1"]);
        expect(
          await ids({
            kinds: ["decision"],
            order: "desc",
            limit: 10,
            afterSeq: (await store.records.getRecord(a, "d3"))!.seq,
          }),
        ).toEqual(["d2", "d1"]);
        expect(
          await ids({
            kinds: ["decision"],
            order: "asc",
            limit: 1,
            afterSeq: (await store.records.getRecord(a, "d1"))!.seq,
          }),
        ).toEqual(["d2"]);
        expect(await ids({ kinds: ["decision"], group: "eng", order: "asc", limit: 10 })).toEqual(["d1", "d3"]);
        expect(await ids({ kinds: ["shravan"], childless: true, order: "asc", limit: 10 })).toEqual(["s2"]);
        expect(await ids({ kinds: ["decision"], order: "asc", limit: 10 }, b)).toEqual(["d9"]);
        expect(await store.records.getRecord(b, "d1")).toBeUndefined();
        expect((await store.records.childRecords(a, "s1")).map((r) => r.id)).toEqual(["m1"]);
        expect(await store.records.countRecords(a)).toEqual([
          { kind: "decision", status: null, childless: true, count: 3 },
          { kind: "manan", status: null, childless: true, count: 1 },
          { kind: "shravan", status: null, childless: false, count: 1 },
          { kind: "shravan", status: null, childless: true, count: 1 },
        ]);
      });

      it("transitions a status only from the expected one, with its side effects in the same write", async () => {
        const { store, a, b } = await twoWorkspaces();
        await store.records.insertRecord(a, rec("p1", { kind: "proposal", status: "pending" }));
        const { doc, chunks } = prepare("knowledge/p1.md", "# Rule\n\nAlways test.\n");
        expect(await store.records.transitionRecord(b, "p1", "pending", "approved", {})).toBeUndefined();
        const done = await store.records.transitionRecord(
          a,
          "p1",
          "pending",
          "approved",
          { ok: 1 },
          { events: [draft("proposal.approved", {})], document: { doc, chunks } },
        );
        expect(done).toMatchObject({ status: "approved", body: { ok: 1 } });
        expect(
          await store.records.transitionRecord(
            a,
            "p1",
            "pending",
            "rejected",
            {},
            { events: [draft("proposal.rejected", {})] },
          ),
        ).toBeUndefined();
        expect((await store.audit.listEvents(a, { limit: 10 })).map((e) => e.type)).toEqual(["proposal.approved"]);
        expect((await store.documents.getDocument(a, "knowledge/p1.md"))?.content).toContain("Always test.");
      });
    });
  });
}
