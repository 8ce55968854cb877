// The DocumentStore port: atomic replace, scoping by workspace, forget with tombstones, vectors by chunk hash.
import { describe, expect, it } from "vitest";
import { verifyChain } from "../../../src/domain/audit/event-hash.ts";
import { contentHash } from "../../../src/domain/text/hash.ts";
import { tokenize } from "../../../src/domain/text/tokenize.ts";
import { prepareDocument as prepare, T0 } from "../../helpers/documents.ts";
import { DAY, draft, engineOf, lexical, put, storeHandles, unit, type StoreFactory } from "./support.ts";

export function runDocumentStoreSuite(name: string, makeStore: StoreFactory): void {
  describe(`DocumentStore conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);
    describe("documents and chunks", () => {
      const v1 =
        "# Ops\n\n## Backups\n\nBackups run nightly with litestream.\n\n## Pager\n\nThe aardvark rotation pages the on-call engineer.\n";
      const v2 =
        "# Ops\n\n## Backups\n\nBackups run nightly with litestream.\n\n## Capacity\n\nThe zebu review happens every quarter.\n";

      it("stores a document and its chunks in order with their offsets", async () => {
        const { store, a } = await twoWorkspaces();
        const { doc, chunks } = prepare("ops.md", v1);
        await store.documents.replaceDocument(a, doc, chunks);
        expect(await store.documents.getDocument(a, "ops.md")).toEqual(doc);
        const stored = await store.documents.documentChunks(a, "ops.md");
        expect(
          stored.map((c) => [c.ord, c.chunkHash, c.anchor, c.start, c.end, c.text, c.sourcePath, c.authoredAt]),
        ).toEqual(chunks.map((c, i) => [i, c.chunkHash, c.anchor, c.start, c.end, c.text, "ops.md", T0]));
        for (const c of stored) expect(v1.slice(c.start, c.end)).toBe(c.text);
        expect(await store.documents.getChunks(a, stored.map((c) => c.id).reverse())).toEqual([...stored].reverse());
        expect((await store.documents.storedChunkHashes(a, [chunks[0]!.chunkHash])).has(chunks[0]!.chunkHash)).toBe(
          true,
        );
        const asked = [...chunks.map((c) => c.chunkHash), "sha256:absent"];
        expect([...(await store.documents.storedChunkHashes(a, asked))].sort()).toEqual(
          [...new Set(chunks.map((c) => c.chunkHash))].sort(),
        );
        expect((await store.documents.chunksByHash(a, chunks[0]!.chunkHash)).map((c) => c.id)).toEqual([stored[0]!.id]);
        expect(await store.documents.getChunks(a, [])).toEqual([]);
        expect(await store.documents.getChunks(a, [987654])).toEqual([]);
      });

      it("keeps a chunk's own event time, else the document's, and the index filters on it", async () => {
        const { store, a } = await twoWorkspaces();
        const { doc, chunks } = prepare("ops.md", v1);
        const dated = chunks.map((c) => (c.text.includes("aardvark") ? { ...c, occurredAt: T0 + DAY } : c));
        await store.documents.replaceDocument(a, doc, dated);
        const stored = await store.documents.documentChunks(a, "ops.md");
        expect(stored.map((c) => c.authoredAt)).toEqual(dated.map((c) => c.occurredAt ?? T0));
        const words = tokenize("aardvark backups");
        expect(await lexical(store, a, words, 10, { since: T0 + DAY })).toHaveLength(1);
        expect(await lexical(store, a, words, 10, { until: T0 + DAY })).toHaveLength(dated.length - 1);
      });

      it("replaceDocument swaps the whole chunk set: nothing of the old version remains visible", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "ops.md", v1);
        const oldIds = (await store.documents.documentChunks(a, "ops.md")).map((c) => c.id);
        expect(await lexical(store, a, tokenize("aardvark"), 10, {})).toHaveLength(1);
        const { doc, chunks } = prepare("ops.md", v2, { authoredAt: T0 + DAY });
        await store.documents.replaceDocument(a, doc, chunks);
        expect((await store.documents.getDocument(a, "ops.md"))?.documentHash).toBe(contentHash(v2));
        expect((await store.documents.documentChunks(a, "ops.md")).map((c) => c.text)).toEqual(
          chunks.map((c) => c.text),
        );
        expect(await lexical(store, a, tokenize("aardvark"), 10, {})).toEqual([]);
        expect(await lexical(store, a, tokenize("zebu"), 10, {})).toHaveLength(1);
        expect(await store.documents.getChunks(a, oldIds)).toEqual([]);
        const pager = prepare("ops.md", v1).chunks.find((c) => c.text.includes("aardvark"))!;
        expect((await store.documents.storedChunkHashes(a, [pager.chunkHash])).has(pager.chunkHash)).toBe(false);
        // Every lexical hit resolves to a chunk of the current version.
        const ids = (await lexical(store, a, tokenize("backups litestream zebu aardvark"), 10, {})).map((h) => h.id);
        expect((await store.documents.getChunks(a, ids)).every((c) => c.authoredAt === T0 + DAY)).toBe(true);
      });

      it("keeps the analysis version a document's terms were made by, and the same content re-analysed replaces them", async () => {
        const { store, a } = await twoWorkspaces();
        // Terms made by an older analysis: a word the text does not hold.
        const old = prepare("ops.md", v1, { analysis: 0 });
        const stale = old.chunks.map((c) => ({ ...c, terms: `${c.terms} wombat` }));
        await store.documents.replaceDocument(a, old.doc, stale);
        expect((await store.documents.getDocument(a, "ops.md"))?.analysis).toBe(0);
        expect(await lexical(store, a, tokenize("wombat"), 10, {})).toHaveLength(stale.length);
        const current = prepare("ops.md", v1, { analysis: 5 });
        await store.documents.replaceDocument(a, current.doc, current.chunks);
        expect(await store.documents.getDocument(a, "ops.md")).toEqual(current.doc);
        expect((await store.documents.listDocuments(a)).map((d) => d.analysis)).toEqual([5]);
        expect(await lexical(store, a, tokenize("wombat"), 10, {})).toEqual([]);
      });

      it("replacing with zero chunks keeps the document but drops its chunks", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "ops.md", v1);
        const { doc } = prepare("ops.md", "   \n");
        await store.documents.replaceDocument(a, doc, []);
        expect(await store.documents.documentChunks(a, "ops.md")).toEqual([]);
        expect(await lexical(store, a, tokenize("backups"), 10, {})).toEqual([]);
      });

      it("listDocuments returns a workspace's documents by path, filtered by a literal prefix, and drops forgotten ones", async () => {
        const { store, a, b } = await twoWorkspaces();
        await put(store, a, "notes/b.md", "# B\n\nBravo.\n");
        await put(store, a, "notes/a.md", "# A\n\nAlpha.\n");
        await put(store, a, "notes%/c.md", "# C\n\nCharlie.\n");
        await put(store, b, "notes/z.md", "# Z\n\nZulu.\n");
        expect((await store.documents.listDocuments(a)).map((d) => d.sourcePath)).toEqual([
          "notes%/c.md",
          "notes/a.md",
          "notes/b.md",
        ]);
        expect((await store.documents.listDocuments(a, "notes/")).map((d) => d.sourcePath)).toEqual([
          "notes/a.md",
          "notes/b.md",
        ]);
        expect((await store.documents.listDocuments(a, "notes%")).map((d) => d.sourcePath)).toEqual(["notes%/c.md"]);
        expect((await store.documents.listDocuments(a, "notes/a.md"))[0]).toEqual(
          await store.documents.getDocument(a, "notes/a.md"),
        );
        await store.documents.forgetSource(a, "notes/a.md", T0);
        expect((await store.documents.listDocuments(a, "notes/")).map((d) => d.sourcePath)).toEqual(["notes/b.md"]);
        expect((await store.documents.listDocuments(b)).map((d) => d.sourcePath)).toEqual(["notes/z.md"]);
      });

      it("re-ingests and forgets of one source at once all complete, and the last word stands", async () => {
        const { store, a } = await twoWorkspaces();
        const other = await fresh(store); // another process on the same store (a replica), with its own connections
        // Each round: replaces and a forget race; they must take the document's row and the change log's lock in one order.
        for (let round = 0; round < 10; round++) {
          const { doc, chunks } = prepare("race.md", round % 2 ? v1 : v2);
          await Promise.all([
            store.documents.replaceDocument(a, doc, chunks),
            other.documents.forgetSource(a, "race.md", T0 + round),
            other.documents.replaceDocument(a, doc, chunks),
            store.documents.forgetSource(a, "race.md", T0 + round),
          ]);
        }
        const { doc, chunks } = prepare("race.md", v1);
        await store.documents.replaceDocument(a, doc, chunks);
        expect((await store.documents.documentChunks(a, "race.md")).map((c) => c.text)).toEqual(
          chunks.map((c) => c.text),
        );
      });

      it("appends the audit draft of a replace in the same write", async () => {
        const { store, a } = await twoWorkspaces();
        const { doc, chunks } = prepare("ops.md", v1);
        await store.documents.replaceDocument(a, doc, chunks, draft("memory.ingest", { source_path: "ops.md" }));
        const events = await store.audit.listEvents(a, { limit: 10 });
        expect(events.map((e) => [e.seq, e.type, JSON.parse(e.payload)])).toEqual([
          [1, "memory.ingest", { source_path: "ops.md" }],
        ]);
      });
    });

    describe("concurrent small writes", () => {
      it("replaces sent at once are each durable and audited, the chain verifies, and one refused takes none of the others with it", async () => {
        const { store, a, b } = await twoWorkspaces();
        const note = (i: number) => prepare(`notes/${i}.md`, `The pelican count on day ${i} was ${i * 7}.\n`);
        // Two refused writes: a chunk without its text (the database refuses it) and an audit payload no JSON can hold.
        const refused = new Set([17, 23]);
        const writes = Array.from({ length: 40 }, (_, i) => {
          const { doc, chunks } = note(i);
          if (i === 17)
            return store.documents.replaceDocument(
              a,
              doc,
              chunks.map((c) => ({ ...c, text: null as unknown as string })),
              draft("memory.ingest", { i }),
            );
          return store.documents.replaceDocument(
            i % 4 ? a : b,
            doc,
            chunks,
            draft("memory.ingest", { i: i === 23 ? 23n : i }),
          );
        });
        const settled = await Promise.allSettled(writes);
        expect(settled.map((r) => r.status)).toEqual(
          settled.map((_, i) => (refused.has(i) ? "rejected" : "fulfilled")),
        );
        expect(String((settled[17] as PromiseRejectedResult).reason)).toMatch(/null|NOT NULL/i);
        expect(String((settled[23] as PromiseRejectedResult).reason)).toMatch(/BigInt/);
        // Read back on another handle (another connection, as another process would): committed, not just cached.
        const other = await fresh(store);
        const all = [...Array(40).keys()].filter((i) => !refused.has(i));
        for (const [ws, ids] of [
          [a, all.filter((i) => i % 4)],
          [b, all.filter((i) => !(i % 4))],
        ] as const) {
          for (const i of ids)
            expect((await other.documents.getDocument(ws, `notes/${i}.md`))?.content).toBe(note(i).doc.content);
          const events = await other.audit.listEvents(ws, { limit: 100 });
          expect(events.map((e) => (JSON.parse(e.payload) as { i: number }).i).sort((x, y) => x - y)).toEqual(ids);
          expect(verifyChain(events)).toBeNull();
        }
        for (const i of refused) expect(await other.documents.getDocument(a, `notes/${i}.md`)).toBeUndefined();
      });

      it("a burst of replaces over stored and forgotten documents, with vectors, commits each as if written alone", async () => {
        const { store, a, b } = await twoWorkspaces();
        const note = (i: number, day: number) =>
          prepare(
            `notes/${i}.md`,
            `The ${day === 1 ? "egret" : "heron"} count on day ${day} of survey ${i} was ${i * 3 + day}.\n`,
          );
        const wsOf = (i: number) => (i % 3 ? a : b);
        for (let i = 0; i < 12; i++) await put(store, wsOf(i), `notes/${i}.md`, note(i, 1).doc.content);
        await store.documents.forgetSource(a, "notes/1.md", T0);
        const vector = (i: number) => Float32Array.from([i, 1, 0]);
        // 24 at once: the 12 stored (the forgotten one among them) replaced, 10 new, and one path written twice.
        const ids = [...Array(22).keys(), 2];
        const writes = ids.map((i, n) => {
          const { doc, chunks } = note(i, n === 22 ? 3 : 2);
          const byHash = new Map(chunks.map((c) => [c.chunkHash, vector(i)]));
          return store.documents.replaceDocument(wsOf(i), doc, chunks, draft("memory.ingest", { i, n }), {
            embedderId: "unit-3d",
            byHash,
          });
        });
        await Promise.all(writes);
        const other = await fresh(store);
        for (let i = 0; i < 22; i++) {
          const { doc, chunks } = note(i, i === 2 ? 3 : 2);
          expect(await other.documents.getDocument(wsOf(i), doc.sourcePath)).toEqual(doc);
          const stored = await other.documents.documentChunks(wsOf(i), doc.sourcePath);
          expect(stored.map((c) => c.text)).toEqual(chunks.map((c) => c.text));
          const vectors = await other.documents.getEmbeddings("unit-3d", [chunks[0]!.chunkHash]);
          expect([...(vectors.get(chunks[0]!.chunkHash) ?? [])]).toEqual([...vector(i)]);
        }
        expect(await other.documents.wasForgotten(a, { sourcePath: "notes/1.md" })).toBe(false);
        // The old versions are gone from search, the new ones found, on the other handle too.
        expect(await lexical(other, a, tokenize("egret"), 50, {})).toHaveLength(0);
        expect(await lexical(other, a, tokenize("heron"), 50, {})).toHaveLength(
          [...Array(22).keys()].filter((i) => i % 3).length,
        );
        for (const ws of [a, b]) {
          const events = await other.audit.listEvents(ws, { limit: 100 });
          expect(verifyChain(events)).toBeNull();
        }
        const nOf = async (ws: string) =>
          (await other.audit.listEvents(ws, { limit: 100 }))
            .map((e) => JSON.parse(e.payload) as { n?: number })
            .flatMap((p) => (p.n === undefined ? [] : [p.n]));
        // Each workspace's events in the order the writes were asked for.
        expect(await nOf(a)).toEqual(ids.flatMap((i, n) => (i % 3 ? [n] : [])));
        expect(await nOf(b)).toEqual(ids.flatMap((i, n) => (i % 3 ? [] : [n])));
      });
    });

    describe("workspace scoping", () => {
      it("never returns one workspace's chunks, documents or hashes to another", async () => {
        const { store, a, b } = await twoWorkspaces();
        await put(store, a, "secret.md", "# Secret\n\nThe pelican code word opens the vault.\n");
        await put(store, b, "public.md", "# Public\n\nThe heron newsletter ships on Fridays.\n");
        const aChunks = await store.documents.documentChunks(a, "secret.md");
        const aIds = aChunks.map((c) => c.id);
        const terms = tokenize("pelican code word vault");
        expect((await lexical(store, a, terms, 10, {})).map((h) => h.id)).toEqual(aIds);
        expect(await lexical(store, b, terms, 10, {})).toEqual([]);
        expect(await store.documents.getChunks(b, aIds)).toEqual([]);
        expect(await store.documents.documentChunks(b, "secret.md")).toEqual([]);
        expect(await store.documents.getDocument(b, "secret.md")).toBeUndefined();
        expect((await store.documents.storedChunkHashes(b, [aChunks[0]!.chunkHash])).has(aChunks[0]!.chunkHash)).toBe(
          false,
        );
        expect(await store.documents.chunksByHash(b, aChunks[0]!.chunkHash)).toEqual([]);
        expect(
          (
            await engineOf(store).search({
              workspaceId: b,
              terms,
              lexicalK: 10,
              dense: null,
              expansion: null,
              filter: {},
            })
          ).maxBm25,
        ).toBe(0);
        expect(await store.documents.forgetSource(b, "secret.md", T0)).toEqual([]);
        expect(await store.documents.forgetChunkHash(b, aChunks[0]!.chunkHash, T0)).toEqual([]);
        expect(await store.documents.wasForgotten(b, { sourcePath: "secret.md" })).toBe(false);
        expect(await store.documents.documentChunks(a, "secret.md")).toEqual(aChunks);
      });

      it("keeps the same path and the same text in two workspaces independent", async () => {
        const { store, a, b } = await twoWorkspaces();
        const content = "# Shared\n\nBoth workspaces hold the osprey procedure.\n";
        await put(store, a, "same.md", content);
        await put(store, b, "same.md", content);
        const removed = await store.documents.forgetSource(b, "same.md", T0);
        expect(removed).toHaveLength(1);
        expect(await store.documents.getDocument(a, "same.md")).toBeDefined();
        expect(await lexical(store, a, tokenize("osprey"), 10, {})).toHaveLength(1);
        expect(await lexical(store, b, tokenize("osprey"), 10, {})).toEqual([]);
        expect(await store.documents.wasForgotten(a, { sourcePath: "same.md" })).toBe(false);
      });
    });

    describe("forget", () => {
      it("forgetSource removes every chunk, tombstones the path, and a repeat removes nothing", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "f.md", "# F\n\nFirst part about wrens.\n\n# G\n\nSecond part about wrens.\n");
        const chunks = await store.documents.documentChunks(a, "f.md");
        expect(await store.documents.wasForgotten(a, { sourcePath: "f.md" })).toBe(false);
        const removed = await store.documents.forgetSource(a, "f.md", T0 + 1);
        expect(removed).toEqual(chunks.map((c) => ({ sourcePath: "f.md", chunkHash: c.chunkHash, anchor: c.anchor })));
        expect(await store.documents.getDocument(a, "f.md")).toBeUndefined();
        expect(
          await store.documents.getChunks(
            a,
            chunks.map((c) => c.id),
          ),
        ).toEqual([]);
        expect(await lexical(store, a, tokenize("wrens"), 10, {})).toEqual([]);
        expect(await store.documents.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        expect(await store.documents.forgetSource(a, "f.md", T0 + 2)).toEqual([]);
        expect(await store.documents.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        // Never-seen targets are not tombstoned.
        expect(await store.documents.forgetSource(a, "ghost.md", T0)).toEqual([]);
        expect(await store.documents.wasForgotten(a, { sourcePath: "ghost.md" })).toBe(false);
      });

      it("re-ingesting lifts the tombstones of the path and of its chunk hashes", async () => {
        const { store, a } = await twoWorkspaces();
        const content = "# F\n\nThe finch returns.\n";
        await put(store, a, "f.md", content);
        const [chunk] = await store.documents.documentChunks(a, "f.md");
        await store.documents.forgetChunkHash(a, chunk!.chunkHash, T0);
        expect(await store.documents.wasForgotten(a, { chunkHash: chunk!.chunkHash })).toBe(true);
        expect(await store.documents.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        await put(store, a, "f.md", content);
        expect(await store.documents.wasForgotten(a, { sourcePath: "f.md" })).toBe(false);
        expect(await store.documents.wasForgotten(a, { chunkHash: chunk!.chunkHash })).toBe(false);
        expect(await lexical(store, a, tokenize("finch"), 10, {})).toHaveLength(1);
      });

      it("forgetChunkHash removes the text from every source and drops sources left empty", async () => {
        const { store, a } = await twoWorkspaces();
        const shared = "# Shared\n\nThe plover nests on gravel.";
        await put(store, a, "one.md", `${shared}\n`);
        await put(store, a, "two.md", `${shared}\n\n# Own\n\nOnly two mentions the avocet.\n`);
        const hash = (await store.documents.documentChunks(a, "one.md"))[0]!.chunkHash;
        const removed = await store.documents.forgetChunkHash(a, hash, T0 + 1);
        expect(removed.map((r) => r.sourcePath).sort()).toEqual(["one.md", "two.md"]);
        expect(removed.every((r) => r.chunkHash === hash)).toBe(true);
        expect((await store.documents.storedChunkHashes(a, [hash])).has(hash)).toBe(false);
        expect(await store.documents.getDocument(a, "one.md")).toBeUndefined();
        expect(await store.documents.getDocument(a, "two.md")).toBeDefined();
        expect((await store.documents.documentChunks(a, "two.md")).map((c) => c.anchor)).toEqual(["Own"]);
        expect(await lexical(store, a, tokenize("plover gravel"), 10, {})).toEqual([]);
        expect(await store.documents.wasForgotten(a, { chunkHash: hash })).toBe(true);
        expect(await store.documents.forgetChunkHash(a, hash, T0 + 2)).toEqual([]);
        expect(await store.documents.forgetChunkHash(a, contentHash("never stored"), T0)).toEqual([]);
        expect(await store.documents.wasForgotten(a, { chunkHash: contentHash("never stored") })).toBe(false);
      });

      it("records a forget's audit draft with what it removed, and not for never-seen targets", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "f.md", "# F\n\nThe tern dives.\n");
        const hash = (await store.documents.documentChunks(a, "f.md"))[0]!.chunkHash;
        await store.documents.forgetSource(a, "f.md", T0, draft("memory.forget", { source_path: "f.md" }));
        await store.documents.forgetSource(a, "ghost.md", T0, draft("memory.forget", { source_path: "ghost.md" }));
        const events = await store.audit.listEvents(a, { limit: 10 });
        expect(events).toHaveLength(1);
        expect(JSON.parse(events[0]!.payload)).toEqual({
          source_path: "f.md",
          removed: [{ source_path: "f.md", chunk_hash: hash }],
        });
      });
    });

    describe("embeddings", () => {
      it("puts and gets vectors per embedder, and reports texts still missing one", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "e.md", "# E\n\nFirst embedded paragraph.\n\n# F\n\nSecond embedded paragraph.\n");
        await put(store, a, "dup.md", "# E\n\nFirst embedded paragraph.\n");
        const chunks = await store.documents.documentChunks(a, "e.md");
        const [h1, h2] = chunks.map((c) => c.chunkHash) as [string, string];
        expect((await store.documents.getEmbeddings("emb@1", [h1, h2])).size).toBe(0);
        const missing = await store.documents.chunksMissingEmbedding("emb@1", 100);
        expect(missing.map((m) => m.chunkHash).sort()).toEqual([h1, h2].sort());
        expect(missing.find((m) => m.chunkHash === h1)?.text).toBe(chunks[0]!.text);
        expect(await store.documents.chunksMissingEmbedding("emb@1", 1)).toHaveLength(1);

        const v1 = unit(0.2, 0.4, 0.8);
        await store.documents.putEmbeddings("emb@1", new Map([[h1, v1]]));
        const got = await store.documents.getEmbeddings("emb@1", [h1, h2, h1]);
        expect([...got.keys()]).toEqual([h1]);
        expect(Array.from(got.get(h1)!)).toEqual(Array.from(v1));
        expect((await store.documents.chunksMissingEmbedding("emb@1", 100)).map((m) => m.chunkHash)).toEqual([h2]);
        expect(await store.documents.chunksMissingEmbedding("emb@2", 100)).toHaveLength(2);
        expect((await store.documents.getEmbeddings("emb@2", [h1])).size).toBe(0);

        const v1b = unit(0.8, 0.4, 0.2);
        await store.documents.putEmbeddings("emb@1", new Map([[h1, v1b]]));
        expect(Array.from((await store.documents.getEmbeddings("emb@1", [h1])).get(h1)!)).toEqual(Array.from(v1b));
      });
    });
  });
}
