// The search engine over a real SQLite store's feed: concurrent cold searches load each index once, and a search awaits
// the store only when a write committed since the last one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { SearchFeed } from "../../src/ports/search-feed.ts";
import { SearchEngine } from "../../src/search/engine.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { prepareDocument, T0 } from "../helpers/documents.ts";
import { unit } from "../store/conformance/support.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store's own feed, counting the calls that go to the database and the changes they read. */
function counted(feed: SearchFeed) {
  const calls = { pages: 0, changes: 0, changesRead: 0 };
  const wrapped: SearchFeed = {
    onCommitted: (listener) => feed.onCommitted?.(listener),
    changeMarker: () => feed.changeMarker(),
    latestChange: () => feed.latestChange(),
    changesSince: async (seq, limit) => {
      calls.changes++;
      const changes = await feed.changesSince(seq, limit);
      calls.changesRead += changes.length;
      return changes;
    },
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

describe("this process's own writes", () => {
  it("are applied from the commit, vectors included, and what another process wrote in between is read from the log", async () => {
    const file = join(dir, "own.db");
    const store = openSqliteStore(file, { writerThread: true });
    const other = openSqliteStore(file); // another process's connection
    try {
      const ws = (await store.workspaces.ensureWorkspace("alpha", T0)).id;
      const vectorReads = { n: 0 };
      const documents = {
        getEmbeddings: (id: string, hashes: readonly string[]) => (
          vectorReads.n++,
          store.documents.getEmbeddings(id, hashes)
        ),
      };
      const { wrapped, calls } = counted(store.feed);
      const engine = new SearchEngine({ feed: wrapped, documents });
      const put = async (via: typeof store, path: string, text: string, vector = unit(1, 0)) => {
        const { doc, chunks } = prepareDocument(path, text);
        const byHash = new Map(chunks.map((c) => [c.chunkHash, vector]));
        await via.documents.replaceDocument(ws, doc, chunks, undefined, { embedderId: "e", byHash });
      };
      const paths = async (query: string, vector?: Float32Array) => {
        const dense = vector ? { embedderId: "e", vector, k: 1 } : null;
        const found = await engine.search({
          workspaceId: ws,
          terms: tokenize(query),
          lexicalK: 10,
          dense,
          expansion: null,
          filter: {},
        });
        const ids = found.hits.filter((h) => !vector || h.denseRank !== null).map((h) => h.id);
        return (await store.documents.getChunks(ws, ids)).map((c) => c.sourcePath).sort();
      };
      await put(store, "a.md", "# A\n\nThe heron nests by the river.\n");
      expect(await paths("heron", unit(1, 0))).toEqual(["a.md"]); // loads the index and its vectors
      const loaded = { ...calls, vectorReads: vectorReads.n };

      await put(store, "b.md", "# B\n\nA second heron, far from it.\n", unit(0, 1));
      await put(store, "a.md", "# A\n\nThe kestrel hunts over the field.\n"); // a replace: heron's chunk removed
      expect(await paths("heron")).toEqual(["b.md"]);
      expect(await paths("kestrel")).toEqual(["a.md"]);
      expect(await paths("far", unit(0, 1))).toEqual(["b.md"]);
      expect({ read: calls.changesRead, vectorReads: vectorReads.n, pages: calls.pages }).toEqual({
        read: loaded.changesRead,
        vectorReads: loaded.vectorReads,
        pages: loaded.pages,
      });

      const bulk = Array.from({ length: 40 }, (_, i) => `## P${i}\n\nPart ${i} of a bulk import.\n`).join("\n");
      await put(store, "bulk.md", `# Bulk\n\n${bulk}`); // more than a commit applies at once: the catch-up reads it
      expect(await paths("bulk import")).toHaveLength(10);
      expect(calls.changesRead).toBe(loaded.changesRead + 40);
      loaded.changesRead = calls.changesRead;

      await put(other, "c.md", "# C\n\nA third heron, from another process.\n");
      await put(store, "d.md", "# D\n\nA fourth heron, ours again.\n");
      expect(await paths("heron")).toEqual(["b.md", "c.md", "d.md"]);
      expect(calls.changesRead).toBe(loaded.changesRead + 2); // c's and d's: d no longer followed what the index held
    } finally {
      await other.close();
      await store.close();
    }
  });
});

describe("an engine nobody holds any more", () => {
  it("is not kept alive by the store it listened to (a runtime dropped over a store others share)", () => {
    const fixture = fileURLToPath(new URL("./fixtures/dropped-engine.ts", import.meta.url));
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", fixture], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("collected\n");
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
