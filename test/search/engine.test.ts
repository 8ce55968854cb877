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
    getEmbeddings: (id, hashes) => feed.getEmbeddings(id, hashes),
  };
  return { wrapped, calls };
}

describe("SearchEngine", () => {
  it("loads each workspace once however many cold searches arrive together, and answers from memory until a write", async () => {
    const store = openSqliteStore(join(dir, "engine.db"));
    try {
      const a = (await store.ensureWorkspace("alpha", T0)).id;
      const b = (await store.ensureWorkspace("beta", T0)).id;
      const put = async (ws: string, path: string, text: string) => {
        const { doc, chunks } = prepareDocument(path, text);
        await store.replaceDocument(ws, doc, chunks);
      };
      await put(a, "a.md", "# A\n\nThe heron nests by the river.\n");
      await put(b, "b.md", "# B\n\nThe heron of beta.\n");
      const { wrapped, calls } = counted(store);
      const engine = new SearchEngine(wrapped);
      const search = (ws: string, q: string) => engine.search({ workspaceId: ws, terms: tokenize(q), lexicalK: 10, dense: null, expansion: null, filter: {} });
      const found = await Promise.all([search(a, "heron"), search(b, "heron"), search(a, "river"), search(b, "beta"), search(a, "heron")]);
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
