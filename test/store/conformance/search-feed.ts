// The SearchFeed port: what the search engine loads and catches up on, seen through searches.
import { describe, expect, it } from "vitest";
import { tokenize } from "../../../src/domain/text/tokenize.ts";
import { OPENING_CHARS, type ChunkChange, type CommittedChanges, type Page } from "../../../src/ports/search-feed.ts";
import type { ChunkFilter } from "../../../src/search/types.ts";
import { prepareDocument, T0 } from "../../helpers/documents.ts";
import { DAY, dense, draft, engineOf, lexical, put, storeHandles, unit, type StoreFactory } from "./support.ts";

export function runSearchFeedSuite(name: string, makeStore: StoreFactory): void {
  describe(`SearchFeed conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);
    describe("lexical search", () => {
      it("filters by path prefix and authored time (since inclusive, until exclusive) inside the search", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "notes/old.md", "# Old\n\nThe kestrel report, first edition.\n", { authoredAt: T0 });
        await put(store, a, "notes/new.md", "# New\n\nThe kestrel report, second edition.\n", {
          authoredAt: T0 + 10 * DAY,
        });
        await put(store, a, "archive/x.md", "# X\n\nAn archived kestrel report.\n", { authoredAt: T0 + 5 * DAY });
        const terms = tokenize("kestrel report");
        const paths = async (filter: ChunkFilter, k = 10) =>
          (
            await store.documents.getChunks(
              a,
              (await lexical(store, a, terms, k, filter)).map((h) => h.id),
            )
          )
            .map((c) => c.sourcePath)
            .sort();
        expect(await paths({})).toEqual(["archive/x.md", "notes/new.md", "notes/old.md"]);
        expect(await paths({ sourcePathPrefix: "notes/" })).toEqual(["notes/new.md", "notes/old.md"]);
        expect(await paths({ sourcePathPrefix: "notes/" }, 1)).toHaveLength(1);
        expect(await paths({ since: T0 + 5 * DAY })).toEqual(["archive/x.md", "notes/new.md"]);
        expect(await paths({ until: T0 + 5 * DAY })).toEqual(["notes/old.md"]);
        expect(await paths({ since: T0 + DAY, until: T0 + 10 * DAY })).toEqual(["archive/x.md"]);
        expect(await paths({ sourcePathPrefix: "zzz" })).toEqual([]);
      });

      it("a candidate another leg brings in carries the same BM25 as the lexical leg gives it, and maxBm25 bounds them", async () => {
        const { store, a } = await twoWorkspaces();
        for (let i = 0; i < 12; i++)
          await put(
            store,
            a,
            `d${i}.md`,
            `# D${i}\n\n${"falcon ".repeat((i % 4) + 1)}migrates over ${i % 2 ? "mountains" : "coasts"} in spring ${i}.\n`,
          );
        const terms = tokenize("falcon mountains spring");
        const hits = await lexical(store, a, terms, 100, {});
        expect(hits).toHaveLength(12);
        const byExpansion = await engineOf(store).search({
          workspaceId: a,
          terms,
          lexicalK: 0,
          dense: null,
          expansion: { terms: tokenize("coasts"), k: 100 },
          filter: {},
        });
        expect(byExpansion.hits).toHaveLength(6);
        for (const h of byExpansion.hits) {
          expect(h.lexicalRank).toBeNull();
          expect(h.bm25).toBeCloseTo(hits.find((x) => x.id === h.id)!.score, 9);
          expect(h.expansion[0]).toBeGreaterThan(0);
        }
        for (const h of hits) expect(h.score).toBeLessThanOrEqual(byExpansion.maxBm25);
        expect(byExpansion.expansionMax[0]).toBeGreaterThan(0);
      });
    });

    describe("this process's commits", () => {
      it("are announced as the change log holds them, for replaces sent at once and with a refused one among them", async () => {
        const { store, a, b } = await twoWorkspaces();
        const heard: ChunkChange[] = [];
        const listener = (c: CommittedChanges) => heard.push(...c.changes); // the store holds it weakly: kept to the end
        store.feed.onCommitted?.(listener);
        const astral = "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ".repeat(30); // code points past U+FFFF, two UTF-16 units each, cut by the opening
        const write = (i: number, word: string, refused: boolean) => {
          const text = `# N${i}\n\n${astral}${word} ${i}.\n\n## More\n\nBob: a turn about é and ß ${i}.\n`;
          const { doc, chunks } = prepareDocument(`n/${i}.md`, text, { authoredAt: T0 + i });
          const sent = refused ? chunks.map((c) => ({ ...c, text: null as unknown as string })) : chunks;
          return store.documents.replaceDocument(i % 2 ? a : b, doc, sent);
        };
        for (const word of ["heron", "kestrel"]) {
          const before = await store.feed.latestChange();
          const from = heard.length;
          const refused = word === "kestrel" ? 3 : -1; // the second round replaces the first's documents, but one
          const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => write(i, word, i === refused)));
          expect(settled.map((r) => r.status === "rejected")).toEqual(settled.map((_, i) => i === refused));
          expect(heard.length).toBeGreaterThan(from);
          expect(heard.slice(from)).toEqual(await store.feed.changesSince(before, 1000));
        }
        expect(listener).toBeTypeOf("function");
      });
    });

    describe("pages", () => {
      it("pages and the change log carry the start of each chunk's text (what tells a turn from a note)", async () => {
        const { store, a } = await twoWorkspaces();
        const seq = await store.feed.latestChange();
        const long = `Alice: ${"word ".repeat(60)}`;
        await put(store, a, "chat/1", long);
        const paged = (await store.feed.indexedChunks(a, null, 10)).rows.map((c) => c.opening);
        const logged = (await store.feed.changesSince(seq, 10)).map((c) => c.chunk?.opening);
        expect(paged).toEqual([long.slice(0, OPENING_CHARS)]);
        expect(logged).toEqual([long.slice(0, OPENING_CHARS)]);
      });

      it("pages every chunk and every vector of one workspace exactly once, whatever the page size", async () => {
        const { store, a, b } = await twoWorkspaces();
        for (const path of ["m.md", "a.md", "z/q.md"])
          await put(store, a, path, `# ${path}\n\nOne ${path} part.\n\n# Two\n\nAnother ${path} part.\n`);
        await put(store, b, "b.md", "# B\n\nBeta only.\n");
        const mine = (
          await Promise.all(["m.md", "a.md", "z/q.md"].map((p) => store.documents.documentChunks(a, p)))
        ).flat();
        await store.documents.putEmbeddings(
          "emb@1",
          new Map(mine.slice(0, 4).map((c, i) => [c.chunkHash, unit(1, i, 0)])),
        );
        /** Every row id of a paged read, checking each page keeps to the size. */
        const allIds = async (size: number, read: (cursor: string | null) => Promise<Page<{ id: number }>>) => {
          const ids: number[] = [];
          for (let cursor: string | null = null, n = 0; n === 0 || cursor !== null; n++) {
            const page = await read(cursor);
            expect(page.rows.length).toBeLessThanOrEqual(size);
            ids.push(...page.rows.map((r) => r.id));
            cursor = page.next;
          }
          return ids.sort((x, y) => x - y);
        };
        const sorted = (chunks: readonly { id: number }[]) => chunks.map((c) => c.id).sort((x, y) => x - y);
        for (const size of [1, 2, 5, 100]) {
          expect(
            await allIds(size, (cursor) => store.feed.indexedChunks(a, cursor, size)),
            `page size ${size}`,
          ).toEqual(sorted(mine));
          expect(
            await allIds(size, (cursor) => store.feed.chunkVectors(a, "emb@1", cursor, size)),
            `page size ${size}`,
          ).toEqual(sorted(mine.slice(0, 4)));
        }
        expect(await store.feed.vectorCount(a, "emb@1")).toBe(4);
        expect(await store.feed.vectorCount(b, "emb@1")).toBe(0);
      });
    });

    describe("dense search", () => {
      it("scopes vectors and events too", async () => {
        const { store, a, b } = await twoWorkspaces();
        await put(store, a, "a.md", "# A\n\nAlpha vector text.\n");
        await put(store, b, "b.md", "# B\n\nBeta vector text.\n");
        const [ca] = await store.documents.documentChunks(a, "a.md");
        const [cb] = await store.documents.documentChunks(b, "b.md");
        await store.documents.putEmbeddings(
          "emb@1",
          new Map([
            [ca!.chunkHash, unit(1, 0, 0)],
            [cb!.chunkHash, unit(1, 0.1, 0)],
          ]),
        );
        expect((await dense(store, a, "emb@1", unit(1, 0, 0), 10, {})).map((h) => h.id)).toEqual([ca!.id]);
        expect((await dense(store, b, "emb@1", unit(1, 0, 0), 10, {})).map((h) => h.id)).toEqual([cb!.id]);
        await store.audit.appendEvents(a, [draft("x", 1)]);
        expect(await store.audit.listEvents(b, { limit: 10 })).toEqual([]);
      });

      it("dense search sees vectors put after the index was loaded, for every chunk with that text", async () => {
        const { store, a } = await twoWorkspaces();
        await put(store, a, "e.md", "# E\n\nA paragraph about ibis.\n\n# F\n\nA paragraph about storks.\n");
        await put(store, a, "dup.md", "# E\n\nA paragraph about ibis.\n");
        const [c1, c2] = await store.documents.documentChunks(a, "e.md");
        const [d1] = await store.documents.documentChunks(a, "dup.md");
        await store.documents.putEmbeddings("emb@1", new Map([[c2!.chunkHash, unit(0, 1, 0)]]));
        expect((await dense(store, a, "emb@1", unit(1, 0, 0), 10, {})).map((h) => h.id)).toEqual([c2!.id]);
        await store.documents.putEmbeddings("emb@1", new Map([[c1!.chunkHash, unit(1, 0, 0)]]));
        const hits = await dense(store, a, "emb@1", unit(1, 0, 0), 10, {});
        expect(
          hits
            .slice(0, 2)
            .map((h) => h.id)
            .sort(),
        ).toEqual([c1!.id, d1!.id].sort());
        expect(hits[0]!.score).toBeCloseTo(1, 6);
        await put(store, a, "plain.md", "# P\n\nA paragraph about nothing with no vector.\n");
        // Lexical candidates get their cosine too; a chunk without a vector gets null.
        const both = await engineOf(store).search({
          workspaceId: a,
          terms: tokenize("paragraph"),
          lexicalK: 10,
          dense: { embedderId: "emb@1", vector: unit(1, 0, 0), k: 0 },
          expansion: null,
          filter: {},
        });
        const cosine = new Map(both.hits.map((h) => [h.id, h.dense]));
        expect(cosine.get(c2!.id)).toBeCloseTo(0, 6);
        expect(cosine.get(d1!.id)).toBeCloseTo(1, 6);
        expect(cosine.get((await store.documents.documentChunks(a, "plain.md"))[0]!.id)).toBeNull();
        expect(both.hits.every((h) => h.denseRank === null)).toBe(true);
        expect(
          (await dense(store, a, "emb@1", unit(1, 0, 0), 10, { sourcePathPrefix: "dup" })).map((h) => h.id),
        ).toEqual([d1!.id]);
        await store.documents.forgetSource(a, "dup.md", T0);
        expect((await dense(store, a, "emb@1", unit(1, 0, 0), 10, {})).map((h) => h.id)).toEqual([c1!.id, c2!.id]);
      });
    });

    describe("a second handle on the same storage", () => {
      it("sees documents, replacements, forgets and vectors written by the first, after its indexes are loaded", async () => {
        const writer = await fresh();
        const ws = (await writer.workspaces.ensureWorkspace("alpha", T0)).id;
        await put(writer, ws, "x.md", "# X\n\nThe first note mentions the albatross.\n");
        const reader = await fresh(writer);
        expect((await reader.workspaces.findWorkspace("alpha"))?.id).toBe(ws);
        expect(await lexical(reader, ws, tokenize("albatross"), 10, {})).toHaveLength(1);

        // The reader's index is now loaded: later writes must reach it through the changes log.
        await put(writer, ws, "y.md", "# Y\n\nA second note about the cormorant.\n");
        expect(await lexical(reader, ws, tokenize("cormorant"), 10, {})).toHaveLength(1);
        await put(writer, ws, "x.md", "# X\n\nThe first note now mentions the gannet.\n");
        expect(await lexical(reader, ws, tokenize("albatross"), 10, {})).toEqual([]);
        const gannet = await lexical(reader, ws, tokenize("gannet"), 10, {});
        expect(
          (
            await reader.documents.getChunks(
              ws,
              gannet.map((h) => h.id),
            )
          ).map((c) => c.text),
        ).toEqual(["# X\n\nThe first note now mentions the gannet."]);
        await writer.documents.forgetSource(ws, "y.md", T0);
        expect(await lexical(reader, ws, tokenize("cormorant"), 10, {})).toEqual([]);
        expect(await reader.documents.wasForgotten(ws, { sourcePath: "y.md" })).toBe(true);

        const [chunk] = await reader.documents.documentChunks(ws, "x.md");
        expect(await dense(reader, ws, "emb@1", unit(1, 0), 10, {})).toEqual([]);
        await writer.documents.putEmbeddings("emb@1", new Map([[chunk!.chunkHash, unit(1, 0)]]));
        expect((await dense(reader, ws, "emb@1", unit(1, 0), 10, {})).map((h) => h.id)).toEqual([chunk!.id]);

        // And the other way round.
        await put(reader, ws, "z.md", "# Z\n\nWritten by the second handle: puffin.\n");
        expect(await lexical(writer, ws, tokenize("puffin"), 10, {})).toHaveLength(1);
        const wsB = (await reader.workspaces.ensureWorkspace("beta", T0)).id;
        await put(reader, wsB, "b.md", "# B\n\nBeta's skua.\n");
        expect(await lexical(writer, wsB, tokenize("skua"), 10, {})).toHaveLength(1);
        expect(await lexical(writer, ws, tokenize("skua"), 10, {})).toEqual([]);
      });
    });
  });
}
