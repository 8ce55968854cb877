// The search engine over a real SQLite store's feed: concurrent cold searches load each index once, and a search awaits
// the store only when a write committed since the last one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { SearchFeed } from "../../src/ports/search-feed.ts";
import { SearchEngine } from "../../src/search/engine.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { prepareDocument, T0 } from "../helpers/documents.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store's own feed, counting the calls that go to the database. */
function counted(feed: SearchFeed) {
  const calls = { pages: 0, changes: 0 };
  const wrapped: SearchFeed = {
    changeMarker: () => feed.changeMarker(),
    latestChange: () => feed.latestChange(),
    changesSince: (seq, limit) => (calls.changes++, feed.changesSince(seq, limit)),
    indexedChunks: (ws, cursor, limit) => (calls.pages++, feed.indexedChunks(ws, cursor, limit)),
    vectorCount: (ws, id) => feed.vectorCount(ws, id),
    chunkVectors: (ws, id, cursor, limit) => feed.chunkVectors(ws, id, cursor, limit),
  };
  return { wrapped, calls };
}

describe("SearchEngine", () => {
  it("loads each workspace once however many cold searches arrive together, and answers from memory until a write", async () => {
    const store = openSqliteStore(join(dir, "engine.db"));
    try {
      const a = (await store.workspaces.ensureWorkspace("alpha", T0)).id;
      const b = (await store.workspaces.ensureWorkspace("beta", T0)).id;
      const put = async (ws: string, path: string, text: string) => {
        const { doc, chunks } = prepareDocument(path, text);
        await store.documents.replaceDocument(ws, doc, chunks);
      };
      await put(a, "a.md", "# A\n\nThe heron nests by the river.\n");
      await put(b, "b.md", "# B\n\nThe heron of beta.\n");
      const { wrapped, calls } = counted(store.feed);
      const engine = new SearchEngine({ feed: wrapped, documents: store.documents });
      const search = (ws: string, q: string) =>
        engine.search({ workspaceId: ws, terms: tokenize(q), lexicalK: 10, dense: null, expansion: null, filter: {} });
      const found = await Promise.all([
        search(a, "heron"),
        search(b, "heron"),
        search(a, "river"),
        search(b, "beta"),
        search(a, "heron"),
      ]);
      expect(found.map((r) => r.hits.length)).toEqual([1, 1, 1, 1, 1]);
      expect(calls.pages).toBe(2);

      const before = { ...calls };
      for (let i = 0; i < 20; i++) await search(a, "heron");
      expect(calls).toEqual(before);

      await put(a, "c.md", "# C\n\nA second heron.\n");
      expect((await search(a, "heron")).hits).toHaveLength(2);
      expect(calls.changes).toBeGreaterThan(before.changes);
      expect(calls.pages).toBe(before.pages);
    } finally {
      await store.close();
    }
  });
});

describe("a memory budget for the loaded indexes", () => {
  const search = (engine: SearchEngine, ws: string, query: string) =>
    engine
      .search({ workspaceId: ws, terms: tokenize(query), lexicalK: 5, dense: null, expansion: null, filter: {} })
      .then((r) => r.hits.map((h) => h.id));

  it("drops the least recently searched workspaces past the budget and loads one again, exactly, when it is searched", async () => {
    const store = openSqliteStore(join(dir, "budget.db"));
    try {
      const ids: string[] = [];
      for (const name of ["one", "two", "three"]) {
        const ws = (await store.workspaces.ensureWorkspace(name, T0)).id;
        ids.push(ws);
        const body = Array.from(
          { length: 40 },
          (_, i) => `## Part ${i}\n\nThe ${name} ledger entry ${i} mentions harbour ${i % 7}.\n`,
        ).join("\n");
        const { doc, chunks } = prepareDocument(`${name}.md`, `# ${name}\n\n${body}`);
        await store.documents.replaceDocument(ws, doc, chunks);
      }
      const free = new SearchEngine(store);
      const before = await Promise.all(ids.map((ws) => search(free, ws, "ledger harbour 3")));
      expect(free.stats()).toMatchObject({ workspaces: 3, loads: 3, evictions: 0 });
      const perWorkspace = free.stats().bytes / 3;

      const tight = new SearchEngine(store, { budgetBytes: Math.round(perWorkspace * 1.5) }); // room for one
      for (const [i, ws] of ids.entries()) expect(await search(tight, ws, "ledger harbour 3")).toEqual(before[i]);
      expect(tight.stats()).toMatchObject({ workspaces: 1, loads: 3, evictions: 2 });
      expect(tight.stats().bytes).toBeLessThanOrEqual(Math.round(perWorkspace * 1.5));
      // The first workspace was dropped: searched again, it loads again and answers as before.
      expect(await search(tight, ids[0]!, "ledger harbour 3")).toEqual(before[0]);
      expect(tight.stats()).toMatchObject({ workspaces: 1, loads: 4, evictions: 3 });
      expect(tight.stats().loadSeconds).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
