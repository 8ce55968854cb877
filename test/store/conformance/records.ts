// The RecordStore port: insert-once records with side effects, keyset paging, compare-and-set transitions.
import { describe, expect, it } from "vitest";
import type { RecordRow } from "../../../src/ports/records.ts";
import type { Store } from "../../../src/ports/store.ts";
import { prepareDocument as prepare, T0 } from "../../helpers/documents.ts";
import { draft, storeHandles, type StoreFactory } from "./support.ts";

export function runRecordStoreSuite(name: string, makeStore: StoreFactory): void {
  describe(`RecordStore conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);
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

      it("a supersession shows at once on the handle that wrote it, and on another (a replica) within a second", async () => {
        const { store, a } = await twoWorkspaces();
        const other = await fresh(store);
        const path = (id: string) => `decisions/eng/${id}.md`;
        const body = (id: string) => ({ id, source_path: path(id), superseded_by: null });
        // Both handles first read "none here" (PostgreSQL then skips the lookup for a while).
        expect(await store.records.supersessions(a, [path("d1")])).toEqual([]);
        expect(await other.records.supersessions(a, [path("d1")])).toEqual([]);
        await store.records.insertRecord(a, rec("d1", { body: body("d1") }));
        const supersede = {
          kind: "decision" as const,
          oldId: "d1",
          newId: "d2",
          oldPath: path("d1"),
          newPath: path("d2"),
        };
        await store.records.insertRecord(a, rec("d2", { body: body("d2") }), { supersede: { ...supersede, at: T0 } });
        expect(await store.records.supersessions(a, [path("d1")])).toHaveLength(1);
        await expect.poll(() => other.records.supersessions(a, [path("d1")]), { timeout: 5_000 }).toHaveLength(1);
      });

      it("supersedes a record once, with the new record, in one write: a chain reads back by either note's path", async () => {
        const { store, a, b } = await twoWorkspaces();
        const body = (id: string) => ({ id, source_path: `decisions/eng/${id}.md`, superseded_by: null });
        const link = (oldId: string, newId: string, at: number) => ({
          kind: "decision" as const,
          oldId,
          newId,
          oldPath: `decisions/eng/${oldId}.md`,
          newPath: `decisions/eng/${newId}.md`,
          at,
        });
        await store.records.insertRecord(a, rec("d1", { body: body("d1") }));
        await store.records.insertRecord(a, rec("d2", { body: body("d2") }), {
          supersede: link("d1", "d2", T0 + 1000),
        });
        await store.records.insertRecord(a, rec("d3", { body: body("d3") }), {
          supersede: link("d2", "d3", T0 + 2000),
        });
        expect((await store.records.getRecord(a, "d1"))!.body).toMatchObject({
          superseded_by: "d2",
          superseded_at: new Date(T0 + 1000).toISOString(),
        });
        expect((await store.records.getRecord(a, "d3"))!.body).toMatchObject({ superseded_by: null });
        const links = await store.records.supersessions(a, ["decisions/eng/d2.md"]);
        expect(links.sort((x, y) => x.at - y.at)).toEqual([
          { oldId: "d1", newId: "d2", oldPath: "decisions/eng/d1.md", newPath: "decisions/eng/d2.md", at: T0 + 1000 },
          { oldId: "d2", newId: "d3", oldPath: "decisions/eng/d2.md", newPath: "decisions/eng/d3.md", at: T0 + 2000 },
        ]);
        expect(await store.records.supersessions(b, ["decisions/eng/d2.md"])).toEqual([]);
        expect(await store.records.supersessions(a, [])).toEqual([]);

        // Superseding again, or what this workspace does not hold, writes nothing: not the record, its note or event.
        const { doc, chunks } = prepare("decisions/eng/d4.md", "# D4\n\nUse PostgreSQL.\n");
        const also = { document: { doc, chunks }, events: [draft("decision.recorded", { ref: "d4" })] };
        await expect(
          store.records.insertRecord(a, rec("d4", { body: body("d4") }), { ...also, supersede: link("d1", "d4", T0) }),
        ).rejects.toMatchObject({ code: "already_superseded" });
        await expect(
          store.records.insertRecord(b, rec("d4", { body: body("d4") }), { ...also, supersede: link("d2", "d4", T0) }),
        ).rejects.toMatchObject({ code: "supersedes_not_found" });
        for (const ws of [a, b]) {
          expect(await store.records.getRecord(ws, "d4")).toBeUndefined();
          expect(await store.documents.getDocument(ws, "decisions/eng/d4.md")).toBeUndefined();
          expect(await store.audit.listEvents(ws, { limit: 10 })).toEqual([]);
        }
        expect((await store.records.getRecord(a, "d1"))!.body).toMatchObject({ superseded_by: "d2" });
      });
    });
  });
}
