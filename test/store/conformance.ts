// The Store port's contract, runnable against any adapter: runStoreSuite("sqlite", () => openSqliteStore(file)).
import { afterEach, describe, expect, it } from "vitest";
import type { DocumentKind } from "../../src/domain/text/chunk.ts";
import { GENESIS_HASH, verifyChain } from "../../src/domain/audit/event-hash.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { EventDraft, RecordRow, Store } from "../../src/ports.ts";
import { prepareDocument as prepare, T0 } from "../helpers/documents.ts";

/**
 * `makeStore()` opens a fresh, empty store; `makeStore(existing)` opens a second handle on the same
 * backing storage as `existing` (another connection, as another process would have).
 */
export type StoreFactory = (sharedWith?: Store) => Store;

const DAY = 86_400_000;

function put(store: Store, ws: string, sourcePath: string, content: string, opts: { kind?: DocumentKind; authoredAt?: number } = {}): void {
  const { doc, chunks } = prepare(sourcePath, content, opts);
  store.replaceDocument(ws, doc, chunks);
}

const unit = (...xs: number[]) => {
  const v = new Float32Array(xs);
  const n = Math.hypot(...xs);
  return v.map((x) => x / n);
};

const draft = (type: string, payload: unknown, at = T0): EventDraft => ({ type, actorId: null, tokenId: null, at, trajectoryId: null, payload });

export function runStoreSuite(name: string, makeStore: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    const open: Store[] = [];
    const fresh = (sharedWith?: Store) => {
      const s = makeStore(sharedWith);
      open.push(s);
      return s;
    };
    afterEach(() => {
      for (const s of open.splice(0).reverse()) s.close();
    });

    const twoWorkspaces = () => {
      const store = fresh();
      const a = store.ensureWorkspace("alpha", T0).id;
      const b = store.ensureWorkspace("beta", T0).id;
      return { store, a, b };
    };

    describe("workspaces and tokens", () => {
      it("ensureWorkspace is idempotent and findWorkspace resolves names and ids", () => {
        const store = fresh();
        const w1 = store.ensureWorkspace("alpha", T0);
        const w2 = store.ensureWorkspace("alpha", T0 + 5);
        expect(w2).toEqual(w1);
        expect(store.findWorkspace("alpha")).toEqual(w1);
        expect(store.findWorkspace(w1.id)).toEqual(w1);
        expect(store.findWorkspace("nobody")).toBeUndefined();
        store.ensureWorkspace("beta", T0 + 1);
        expect(store.listWorkspaces().map((w) => w.name)).toEqual(["alpha", "beta"]);
      });

      it("stores tokens by hash, lists them per workspace and revokes once", () => {
        const { store, a, b } = twoWorkspaces();
        store.insertToken({ id: "tok_a", workspaceId: a, actors: ["alice"], label: "ci", createdAt: T0, revokedAt: null }, "hash-a");
        store.insertToken({ id: "tok_b", workspaceId: b, actors: [], label: null, createdAt: T0 + 1, revokedAt: null }, "hash-b");
        expect(store.findTokenByHash("hash-a")).toEqual({ id: "tok_a", workspaceId: a, actors: ["alice"], label: "ci", createdAt: T0, revokedAt: null });
        expect(store.findTokenByHash("nope")).toBeUndefined();
        expect(store.listTokens(a).map((t) => t.id)).toEqual(["tok_a"]);
        expect(store.listTokens().map((t) => t.id)).toEqual(["tok_a", "tok_b"]);
        expect(store.revokeToken("tok_a", T0 + 9)).toBe(true);
        expect(store.revokeToken("tok_a", T0 + 10)).toBe(false);
        expect(store.revokeToken("tok_missing", T0)).toBe(false);
        expect(store.findTokenByHash("hash-a")?.revokedAt).toBe(T0 + 9);
      });
    });

    describe("documents and chunks", () => {
      const v1 = "# Ops\n\n## Backups\n\nBackups run nightly with litestream.\n\n## Pager\n\nThe aardvark rotation pages the on-call engineer.\n";
      const v2 = "# Ops\n\n## Backups\n\nBackups run nightly with litestream.\n\n## Capacity\n\nThe zebu review happens every quarter.\n";

      it("stores a document and its chunks in order with their offsets", () => {
        const { store, a } = twoWorkspaces();
        const { doc, chunks } = prepare("ops.md", v1);
        store.replaceDocument(a, doc, chunks);
        expect(store.getDocument(a, "ops.md")).toEqual(doc);
        const stored = store.documentChunks(a, "ops.md");
        expect(stored.map((c) => [c.ord, c.chunkHash, c.anchor, c.start, c.end, c.text, c.terms, c.sourcePath, c.authoredAt])).toEqual(
          chunks.map((c, i) => [i, c.chunkHash, c.anchor, c.start, c.end, c.text, c.terms.join(" "), "ops.md", T0]),
        );
        for (const c of stored) expect(v1.slice(c.start, c.end)).toBe(c.text);
        expect(store.getChunks(a, stored.map((c) => c.id).reverse())).toEqual([...stored].reverse());
        expect(store.hasChunkHash(a, chunks[0]!.chunkHash)).toBe(true);
        expect(store.chunksByHash(a, chunks[0]!.chunkHash).map((c) => c.id)).toEqual([stored[0]!.id]);
        expect(store.getChunks(a, [])).toEqual([]);
        expect(store.getChunks(a, [987654])).toEqual([]);
      });

      it("replaceDocument swaps the whole chunk set: nothing of the old version remains visible", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "ops.md", v1);
        const oldIds = store.documentChunks(a, "ops.md").map((c) => c.id);
        expect(store.searchLexical(a, tokenize("aardvark"), 10, {})).toHaveLength(1);
        const { doc, chunks } = prepare("ops.md", v2, { authoredAt: T0 + DAY });
        store.replaceDocument(a, doc, chunks);
        expect(store.getDocument(a, "ops.md")?.documentHash).toBe(contentHash(v2));
        expect(store.documentChunks(a, "ops.md").map((c) => c.text)).toEqual(chunks.map((c) => c.text));
        expect(store.searchLexical(a, tokenize("aardvark"), 10, {})).toEqual([]);
        expect(store.searchLexical(a, tokenize("zebu"), 10, {})).toHaveLength(1);
        expect(store.getChunks(a, oldIds)).toEqual([]);
        const pager = prepare("ops.md", v1).chunks.find((c) => c.text.includes("aardvark"))!;
        expect(store.hasChunkHash(a, pager.chunkHash)).toBe(false);
        // Every lexical hit resolves to a chunk of the current version.
        const ids = store.searchLexical(a, tokenize("backups litestream zebu aardvark"), 10, {}).map((h) => h.id);
        expect(store.getChunks(a, ids).every((c) => c.authoredAt === T0 + DAY)).toBe(true);
      });

      it("replacing with zero chunks keeps the document but drops its chunks", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "ops.md", v1);
        const { doc } = prepare("ops.md", "   \n");
        store.replaceDocument(a, doc, []);
        expect(store.documentChunks(a, "ops.md")).toEqual([]);
        expect(store.searchLexical(a, tokenize("backups"), 10, {})).toEqual([]);
      });

      it("listDocuments returns a workspace's documents by path, filtered by a literal prefix, and drops forgotten ones", () => {
        const { store, a, b } = twoWorkspaces();
        put(store, a, "notes/b.md", "# B\n\nBravo.\n");
        put(store, a, "notes/a.md", "# A\n\nAlpha.\n");
        put(store, a, "notes%/c.md", "# C\n\nCharlie.\n");
        put(store, b, "notes/z.md", "# Z\n\nZulu.\n");
        expect(store.listDocuments(a).map((d) => d.sourcePath)).toEqual(["notes%/c.md", "notes/a.md", "notes/b.md"]);
        expect(store.listDocuments(a, "notes/").map((d) => d.sourcePath)).toEqual(["notes/a.md", "notes/b.md"]);
        expect(store.listDocuments(a, "notes%").map((d) => d.sourcePath)).toEqual(["notes%/c.md"]);
        expect(store.listDocuments(a, "notes/a.md")[0]).toEqual(store.getDocument(a, "notes/a.md"));
        store.forgetSource(a, "notes/a.md", T0);
        expect(store.listDocuments(a, "notes/").map((d) => d.sourcePath)).toEqual(["notes/b.md"]);
        expect(store.listDocuments(b).map((d) => d.sourcePath)).toEqual(["notes/z.md"]);
      });

      it("appends the audit draft of a replace in the same write", () => {
        const { store, a } = twoWorkspaces();
        const { doc, chunks } = prepare("ops.md", v1);
        store.replaceDocument(a, doc, chunks, draft("memory.ingest", { source_path: "ops.md" }));
        const events = store.listEvents(a, { limit: 10 });
        expect(events.map((e) => [e.seq, e.type, JSON.parse(e.payload)])).toEqual([[1, "memory.ingest", { source_path: "ops.md" }]]);
      });
    });

    describe("workspace scoping", () => {
      it("never returns one workspace's chunks, documents or hashes to another", () => {
        const { store, a, b } = twoWorkspaces();
        put(store, a, "secret.md", "# Secret\n\nThe pelican code word opens the vault.\n");
        put(store, b, "public.md", "# Public\n\nThe heron newsletter ships on Fridays.\n");
        const aChunks = store.documentChunks(a, "secret.md");
        const aIds = aChunks.map((c) => c.id);
        const terms = tokenize("pelican code word vault");
        expect(store.searchLexical(a, terms, 10, {}).map((h) => h.id)).toEqual(aIds);
        expect(store.searchLexical(b, terms, 10, {})).toEqual([]);
        expect(store.getChunks(b, aIds)).toEqual([]);
        expect(store.documentChunks(b, "secret.md")).toEqual([]);
        expect(store.getDocument(b, "secret.md")).toBeUndefined();
        expect(store.hasChunkHash(b, aChunks[0]!.chunkHash)).toBe(false);
        expect(store.chunksByHash(b, aChunks[0]!.chunkHash)).toEqual([]);
        expect(store.lexicalScores(b, terms, [aIds[0]!])).toEqual([0]);
        expect(store.lexicalMaxScore(b, terms)).toBe(0);
        expect(store.forgetSource(b, "secret.md", T0)).toEqual([]);
        expect(store.forgetChunkHash(b, aChunks[0]!.chunkHash, T0)).toEqual([]);
        expect(store.wasForgotten(b, { sourcePath: "secret.md" })).toBe(false);
        expect(store.documentChunks(a, "secret.md")).toEqual(aChunks);
      });

      it("keeps the same path and the same text in two workspaces independent", () => {
        const { store, a, b } = twoWorkspaces();
        const content = "# Shared\n\nBoth workspaces hold the osprey procedure.\n";
        put(store, a, "same.md", content);
        put(store, b, "same.md", content);
        const removed = store.forgetSource(b, "same.md", T0);
        expect(removed).toHaveLength(1);
        expect(store.getDocument(a, "same.md")).toBeDefined();
        expect(store.searchLexical(a, tokenize("osprey"), 10, {})).toHaveLength(1);
        expect(store.searchLexical(b, tokenize("osprey"), 10, {})).toEqual([]);
        expect(store.wasForgotten(a, { sourcePath: "same.md" })).toBe(false);
      });

      it("scopes vectors and events too", () => {
        const { store, a, b } = twoWorkspaces();
        put(store, a, "a.md", "# A\n\nAlpha vector text.\n");
        put(store, b, "b.md", "# B\n\nBeta vector text.\n");
        const [ca] = store.documentChunks(a, "a.md");
        const [cb] = store.documentChunks(b, "b.md");
        store.putEmbeddings("emb@1", new Map([[ca!.chunkHash, unit(1, 0, 0)], [cb!.chunkHash, unit(1, 0.1, 0)]]));
        expect(store.searchDense(a, "emb@1", unit(1, 0, 0), 10, {}).map((h) => h.id)).toEqual([ca!.id]);
        expect(store.searchDense(b, "emb@1", unit(1, 0, 0), 10, {}).map((h) => h.id)).toEqual([cb!.id]);
        expect(store.denseSimilarities(b, "emb@1", unit(1, 0, 0), [ca!.id])).toEqual([null]);
        expect(store.chunkVector(b, "emb@1", 3, ca!.id)).toBeUndefined();
        store.appendEvents(a, [draft("x", 1)]);
        expect(store.listEvents(b, { limit: 10 })).toEqual([]);
      });
    });

    describe("lexical search", () => {
      it("filters by path prefix and authored time (since inclusive, until exclusive) inside the search", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "notes/old.md", "# Old\n\nThe kestrel report, first edition.\n", { authoredAt: T0 });
        put(store, a, "notes/new.md", "# New\n\nThe kestrel report, second edition.\n", { authoredAt: T0 + 10 * DAY });
        put(store, a, "archive/x.md", "# X\n\nAn archived kestrel report.\n", { authoredAt: T0 + 5 * DAY });
        const terms = tokenize("kestrel report");
        const paths = (filter: Parameters<Store["searchLexical"]>[3], k = 10) =>
          store.getChunks(a, store.searchLexical(a, terms, k, filter).map((h) => h.id)).map((c) => c.sourcePath).sort();
        expect(paths({})).toEqual(["archive/x.md", "notes/new.md", "notes/old.md"]);
        expect(paths({ sourcePathPrefix: "notes/" })).toEqual(["notes/new.md", "notes/old.md"]);
        expect(paths({ sourcePathPrefix: "notes/" }, 1)).toHaveLength(1);
        expect(paths({ since: T0 + 5 * DAY })).toEqual(["archive/x.md", "notes/new.md"]);
        expect(paths({ until: T0 + 5 * DAY })).toEqual(["notes/old.md"]);
        expect(paths({ since: T0 + DAY, until: T0 + 10 * DAY })).toEqual(["archive/x.md"]);
        expect(paths({ sourcePathPrefix: "zzz" })).toEqual([]);
      });

      it("lexicalScores match the search scores in order and lexicalMaxScore bounds them", () => {
        const { store, a } = twoWorkspaces();
        for (let i = 0; i < 12; i++) put(store, a, `d${i}.md`, `# D${i}\n\n${"falcon ".repeat(i % 4 + 1)}migrates over ${i % 2 ? "mountains" : "coasts"} in spring ${i}.\n`);
        const terms = tokenize("falcon mountains spring");
        const hits = store.searchLexical(a, terms, 100, {});
        expect(hits).toHaveLength(12);
        const max = store.lexicalMaxScore(a, terms);
        const scores = store.lexicalScores(a, terms, [...hits.map((h) => h.id), 123456].reverse());
        expect(scores[0]).toBe(0);
        scores.slice(1).reverse().forEach((s, i) => expect(s).toBeCloseTo(hits[i]!.score, 9));
        for (const h of hits) expect(h.score).toBeLessThanOrEqual(max);
      });
    });

    describe("forget", () => {
      it("forgetSource removes every chunk, tombstones the path, and a repeat removes nothing", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "f.md", "# F\n\nFirst part about wrens.\n\n# G\n\nSecond part about wrens.\n");
        const chunks = store.documentChunks(a, "f.md");
        expect(store.wasForgotten(a, { sourcePath: "f.md" })).toBe(false);
        const removed = store.forgetSource(a, "f.md", T0 + 1);
        expect(removed).toEqual(chunks.map((c) => ({ sourcePath: "f.md", chunkHash: c.chunkHash, anchor: c.anchor })));
        expect(store.getDocument(a, "f.md")).toBeUndefined();
        expect(store.getChunks(a, chunks.map((c) => c.id))).toEqual([]);
        expect(store.searchLexical(a, tokenize("wrens"), 10, {})).toEqual([]);
        expect(store.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        expect(store.forgetSource(a, "f.md", T0 + 2)).toEqual([]);
        expect(store.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        // Never-seen targets are not tombstoned.
        expect(store.forgetSource(a, "ghost.md", T0)).toEqual([]);
        expect(store.wasForgotten(a, { sourcePath: "ghost.md" })).toBe(false);
      });

      it("re-ingesting lifts the tombstones of the path and of its chunk hashes", () => {
        const { store, a } = twoWorkspaces();
        const content = "# F\n\nThe finch returns.\n";
        put(store, a, "f.md", content);
        const [chunk] = store.documentChunks(a, "f.md");
        store.forgetChunkHash(a, chunk!.chunkHash, T0);
        expect(store.wasForgotten(a, { chunkHash: chunk!.chunkHash })).toBe(true);
        expect(store.wasForgotten(a, { sourcePath: "f.md" })).toBe(true);
        put(store, a, "f.md", content);
        expect(store.wasForgotten(a, { sourcePath: "f.md" })).toBe(false);
        expect(store.wasForgotten(a, { chunkHash: chunk!.chunkHash })).toBe(false);
        expect(store.searchLexical(a, tokenize("finch"), 10, {})).toHaveLength(1);
      });

      it("forgetChunkHash removes the text from every source and drops sources left empty", () => {
        const { store, a } = twoWorkspaces();
        const shared = "# Shared\n\nThe plover nests on gravel.";
        put(store, a, "one.md", `${shared}\n`);
        put(store, a, "two.md", `${shared}\n\n# Own\n\nOnly two mentions the avocet.\n`);
        const hash = store.documentChunks(a, "one.md")[0]!.chunkHash;
        const removed = store.forgetChunkHash(a, hash, T0 + 1);
        expect(removed.map((r) => r.sourcePath).sort()).toEqual(["one.md", "two.md"]);
        expect(removed.every((r) => r.chunkHash === hash)).toBe(true);
        expect(store.hasChunkHash(a, hash)).toBe(false);
        expect(store.getDocument(a, "one.md")).toBeUndefined();
        expect(store.getDocument(a, "two.md")).toBeDefined();
        expect(store.documentChunks(a, "two.md").map((c) => c.anchor)).toEqual(["Own"]);
        expect(store.searchLexical(a, tokenize("plover gravel"), 10, {})).toEqual([]);
        expect(store.wasForgotten(a, { chunkHash: hash })).toBe(true);
        expect(store.forgetChunkHash(a, hash, T0 + 2)).toEqual([]);
        expect(store.forgetChunkHash(a, contentHash("never stored"), T0)).toEqual([]);
        expect(store.wasForgotten(a, { chunkHash: contentHash("never stored") })).toBe(false);
      });

      it("records a forget's audit draft with what it removed, and not for never-seen targets", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "f.md", "# F\n\nThe tern dives.\n");
        const hash = store.documentChunks(a, "f.md")[0]!.chunkHash;
        store.forgetSource(a, "f.md", T0, draft("memory.forget", { source_path: "f.md" }));
        store.forgetSource(a, "ghost.md", T0, draft("memory.forget", { source_path: "ghost.md" }));
        const events = store.listEvents(a, { limit: 10 });
        expect(events).toHaveLength(1);
        expect(JSON.parse(events[0]!.payload)).toEqual({ source_path: "f.md", removed: [{ source_path: "f.md", chunk_hash: hash }] });
      });
    });

    describe("embeddings", () => {
      it("puts and gets vectors per embedder, and reports texts still missing one", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "e.md", "# E\n\nFirst embedded paragraph.\n\n# F\n\nSecond embedded paragraph.\n");
        put(store, a, "dup.md", "# E\n\nFirst embedded paragraph.\n");
        const chunks = store.documentChunks(a, "e.md");
        const [h1, h2] = chunks.map((c) => c.chunkHash) as [string, string];
        expect(store.getEmbeddings("emb@1", [h1, h2]).size).toBe(0);
        const missing = store.chunksMissingEmbedding("emb@1", 100);
        expect(missing.map((m) => m.chunkHash).sort()).toEqual([h1, h2].sort());
        expect(missing.find((m) => m.chunkHash === h1)?.text).toBe(chunks[0]!.text);
        expect(store.chunksMissingEmbedding("emb@1", 1)).toHaveLength(1);

        const v1 = unit(0.2, 0.4, 0.8);
        store.putEmbeddings("emb@1", new Map([[h1, v1]]));
        const got = store.getEmbeddings("emb@1", [h1, h2, h1]);
        expect([...got.keys()]).toEqual([h1]);
        expect(Array.from(got.get(h1)!)).toEqual(Array.from(v1));
        expect(store.chunksMissingEmbedding("emb@1", 100).map((m) => m.chunkHash)).toEqual([h2]);
        expect(store.chunksMissingEmbedding("emb@2", 100)).toHaveLength(2);
        expect(store.getEmbeddings("emb@2", [h1]).size).toBe(0);

        const v1b = unit(0.8, 0.4, 0.2);
        store.putEmbeddings("emb@1", new Map([[h1, v1b]]));
        expect(Array.from(store.getEmbeddings("emb@1", [h1]).get(h1)!)).toEqual(Array.from(v1b));
      });

      it("dense search sees vectors put after the index was loaded, for every chunk with that text", () => {
        const { store, a } = twoWorkspaces();
        put(store, a, "e.md", "# E\n\nA paragraph about ibis.\n\n# F\n\nA paragraph about storks.\n");
        put(store, a, "dup.md", "# E\n\nA paragraph about ibis.\n");
        const [c1, c2] = store.documentChunks(a, "e.md");
        const [d1] = store.documentChunks(a, "dup.md");
        store.putEmbeddings("emb@1", new Map([[c2!.chunkHash, unit(0, 1, 0)]]));
        expect(store.searchDense(a, "emb@1", unit(1, 0, 0), 10, {}).map((h) => h.id)).toEqual([c2!.id]);
        store.putEmbeddings("emb@1", new Map([[c1!.chunkHash, unit(1, 0, 0)]]));
        const hits = store.searchDense(a, "emb@1", unit(1, 0, 0), 10, {});
        expect(hits.slice(0, 2).map((h) => h.id).sort()).toEqual([c1!.id, d1!.id].sort());
        expect(hits[0]!.score).toBeCloseTo(1, 6);
        const [toC2, toD1, toNone] = store.denseSimilarities(a, "emb@1", unit(1, 0, 0), [c2!.id, d1!.id, 123456]);
        expect(toC2).toBeCloseTo(0, 6);
        expect(toD1).toBeCloseTo(1, 6);
        expect(toNone).toBeNull();
        expect(Array.from(store.chunkVector(a, "emb@1", 3, d1!.id)!)).toEqual(Array.from(unit(1, 0, 0)));
        expect(store.searchDense(a, "emb@1", unit(1, 0, 0), 10, { sourcePathPrefix: "dup" }).map((h) => h.id)).toEqual([d1!.id]);
        store.forgetSource(a, "dup.md", T0);
        expect(store.searchDense(a, "emb@1", unit(1, 0, 0), 10, {}).map((h) => h.id)).toEqual([c1!.id, c2!.id]);
      });
    });

    describe("audit events", () => {
      it("chains events per workspace and pages them by seq", () => {
        const { store, a, b } = twoWorkspaces();
        const first = store.appendEvents(a, [draft("one", { z: 1, a: 2 }), draft("two", null, T0 + 1)]);
        store.appendEvents(b, [draft("other", 1)]);
        const third = store.appendEvents(a, [{ ...draft("three", [1]), actorId: "alice", trajectoryId: "traj_1" }]);
        expect([...first, ...third].map((e) => e.seq)).toEqual([1, 2, 3]);
        expect(first[0]!.prevHash).toBe(GENESIS_HASH);
        expect(first[1]!.prevHash).toBe(first[0]!.hash);
        expect(third[0]!.prevHash).toBe(first[1]!.hash);
        expect(first[0]!.payload).toBe('{"a":2,"z":1}');
        const all = store.listEvents(a, { limit: 100 });
        expect(all.map((e) => e.type)).toEqual(["one", "two", "three"]);
        expect(verifyChain(all)).toBeNull();
        expect(store.listEvents(a, { afterSeq: 1, limit: 1 }).map((e) => e.seq)).toEqual([2]);
        expect(store.listEvents(a, { order: "desc", limit: 2 }).map((e) => e.seq)).toEqual([3, 2]);
        expect(store.listEvents(a, { order: "desc", afterSeq: 2, limit: 10 }).map((e) => e.seq)).toEqual([1]); // before seq 2, walking back
        expect(store.listEvents(a, { order: "desc", limit: 10, types: ["three", "one"] }).map((e) => e.seq)).toEqual([3, 1]);
        expect(store.listEvents(a, { limit: 10, types: ["three", "one"] }).map((e) => e.seq)).toEqual([1, 3]);
        expect(store.listEvents(a, { limit: 10, actorId: "alice" }).map((e) => e.seq)).toEqual([3]);
        expect(store.listEvents(a, { limit: 10, trajectoryId: "traj_1" }).map((e) => e.seq)).toEqual([3]);
        expect(store.listEvents(a, { limit: 10, since: T0 + 1, until: T0 + 2 }).map((e) => e.seq)).toEqual([2]);
        expect(store.listEvents(b, { limit: 10 }).map((e) => [e.seq, e.prevHash])).toEqual([[1, GENESIS_HASH]]);
      });
    });

    describe("knowledge records", () => {
      const rec = (id: string, over: Partial<RecordRow> = {}): RecordRow => ({ id, kind: "decision", group: "eng", parentId: null, status: null, createdAt: T0, body: { id }, ...over });

      it("inserts once per id: a repeat keeps the first body and writes its side effects only the first time", () => {
        const { store, a } = twoWorkspaces();
        const { doc, chunks } = prepare("decisions/eng/d1.md", "# D1\n\nUse SQLite.\n");
        const first = store.insertRecord(a, rec("d1"), { events: [draft("decision.recorded", { ref: "d1" })], document: { doc, chunks }, records: [rec("p1", { kind: "proposal", parentId: "d1", status: "pending" })] });
        const again = store.insertRecord(a, rec("d1", { body: { id: "d1", changed: true } }), { events: [draft("decision.recorded", { ref: "d1" })], records: [rec("p2", { parentId: "d1" })] });
        expect(store.childRecords(a, "d1").map((r) => [r.id, r.status])).toEqual([["p1", "pending"]]);
        expect(first.created).toBe(true);
        expect(again).toEqual({ record: first.record, created: false });
        expect(again.record.body).toEqual({ id: "d1" });
        expect(store.listEvents(a, { limit: 10 })).toHaveLength(1);
        expect(store.documentChunks(a, "decisions/eng/d1.md").map((c) => c.text).join("")).toContain("Use SQLite.");
      });

      it("pages by insertion order in both directions, filtered by kind, group, status and childlessness", () => {
        const { store, a, b } = twoWorkspaces();
        for (const id of ["d1", "d2", "d3"]) store.insertRecord(a, rec(id, { group: id === "d2" ? "ops" : "eng" }));
        store.insertRecord(a, rec("s1", { kind: "shravan", group: null }));
        store.insertRecord(a, rec("s2", { kind: "shravan", group: null }));
        store.insertRecord(a, rec("m1", { kind: "manan", group: null, parentId: "s1" }));
        store.insertRecord(b, rec("d9"));
        const ids = (q: Parameters<Store["listRecords"]>[1], ws = a) => store.listRecords(ws, q).map((r) => r.id);
        expect(ids({ kinds: ["decision"], order: "desc", limit: 10 })).toEqual(["d3", "d2", "d1"]);
        expect(ids({ kinds: ["decision"], order: "desc", limit: 10, afterSeq: store.getRecord(a, "d3")!.seq })).toEqual(["d2", "d1"]);
        expect(ids({ kinds: ["decision"], order: "asc", limit: 1, afterSeq: store.getRecord(a, "d1")!.seq })).toEqual(["d2"]);
        expect(ids({ kinds: ["decision"], group: "eng", order: "asc", limit: 10 })).toEqual(["d1", "d3"]);
        expect(ids({ kinds: ["shravan"], childless: true, order: "asc", limit: 10 })).toEqual(["s2"]);
        expect(ids({ kinds: ["decision"], order: "asc", limit: 10 }, b)).toEqual(["d9"]);
        expect(store.getRecord(b, "d1")).toBeUndefined();
        expect(store.childRecords(a, "s1").map((r) => r.id)).toEqual(["m1"]);
        expect(store.countRecords(a)).toEqual([
          { kind: "decision", status: null, childless: true, count: 3 },
          { kind: "manan", status: null, childless: true, count: 1 },
          { kind: "shravan", status: null, childless: false, count: 1 },
          { kind: "shravan", status: null, childless: true, count: 1 },
        ]);
      });

      it("transitions a status only from the expected one, with its side effects in the same write", () => {
        const { store, a, b } = twoWorkspaces();
        store.insertRecord(a, rec("p1", { kind: "proposal", status: "pending" }));
        const { doc, chunks } = prepare("knowledge/p1.md", "# Rule\n\nAlways test.\n");
        expect(store.transitionRecord(b, "p1", "pending", "approved", {})).toBeUndefined();
        const done = store.transitionRecord(a, "p1", "pending", "approved", { ok: 1 }, { events: [draft("proposal.approved", {})], document: { doc, chunks } });
        expect(done).toMatchObject({ status: "approved", body: { ok: 1 } });
        expect(store.transitionRecord(a, "p1", "pending", "rejected", {}, { events: [draft("proposal.rejected", {})] })).toBeUndefined();
        expect(store.listEvents(a, { limit: 10 }).map((e) => e.type)).toEqual(["proposal.approved"]);
        expect(store.getDocument(a, "knowledge/p1.md")?.content).toContain("Always test.");
      });
    });

    describe("cognitive counters and records", () => {
      const HOUR = 3_600_000;
      it("sums increments per hour bucket and reads totals per workspace since a time", () => {
        const store = fresh();
        store.addCounters([
          { workspaceId: "w1", hour: 0, layer: "viveka", counter: "injection_flagged", n: 2 },
          { workspaceId: "w1", hour: 0, layer: "viveka", counter: "injection_flagged", n: 3 },
          { workspaceId: "w1", hour: HOUR, layer: "viveka", counter: "injection_flagged", n: 1 },
          { workspaceId: "w2", hour: HOUR, layer: "manas", counter: "queries_expanded", n: 4 },
        ]);
        store.addCounters([{ workspaceId: "w1", hour: HOUR, layer: "viveka", counter: "injection_flagged", n: 10 }]);
        expect(store.counterTotals({})).toEqual([
          { workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 16 },
          { workspaceId: "w2", layer: "manas", counter: "queries_expanded", n: 4 },
        ]);
        expect(store.counterTotals({ since: HOUR, workspaceId: "w1" })).toEqual([{ workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 11 }]);
        expect(store.counterTotals({ until: HOUR })).toEqual([{ workspaceId: "w1", layer: "viveka", counter: "injection_flagged", n: 5 }]);
        expect(store.counterTotals({ since: 2 * HOUR })).toEqual([]);
      });

      it("sums chitta's impressions per workspace and chunk, listed per workspace smallest first, visible to another handle", () => {
        const one = fresh();
        one.addImpressions([
          { workspaceId: "w1", chunkHash: "sha256:a", n: 2 },
          { workspaceId: "w2", chunkHash: "sha256:a", n: 1 },
          { workspaceId: "w1", chunkHash: "sha256:b", n: 1 },
        ]);
        one.addImpressions([{ workspaceId: "w1", chunkHash: "sha256:b", n: 4 }]);
        one.addImpressions([]);
        expect(fresh(one).listImpressions()).toEqual([
          { workspaceId: "w1", chunkHash: "sha256:a", n: 2 },
          { workspaceId: "w1", chunkHash: "sha256:b", n: 5 },
          { workspaceId: "w2", chunkHash: "sha256:a", n: 1 },
        ]);
      });

      it("keeps records by kind, newest first, with their JSON payloads, visible to another handle", () => {
        const one = fresh();
        one.appendCognitiveRecords([
          { kind: "tuner_decision", workspaceId: null, at: 10, payload: { layer: "manas", kept: true } },
          { kind: "ablation", workspaceId: null, at: 20, payload: { uplift: { viveka: { x: 0.01 } } } },
          { kind: "tuner_decision", workspaceId: "w1", at: 30, payload: { layer: "chitta", kept: false } },
        ]);
        const two = fresh(one);
        const decisions = two.listCognitiveRecords({ kind: "tuner_decision", limit: 10 });
        expect(decisions.map((d) => [d.at, d.workspaceId, d.payload])).toEqual([
          [30, "w1", { layer: "chitta", kept: false }],
          [10, null, { layer: "manas", kept: true }],
        ]);
        expect(two.listCognitiveRecords({ kind: "tuner_decision", since: 11, limit: 10 })).toHaveLength(1);
        expect(two.listCognitiveRecords({ kind: "tuner_decision", limit: 1 })[0]!.at).toBe(30);
        expect(two.listCognitiveRecords({ kind: "nothing", limit: 10 })).toEqual([]);
      });

      it("keeps each workspace's newest process traces, readable only in their workspace and from another handle", () => {
        const one = fresh();
        for (const [i, ws] of (["w1", "w1", "w2", "w1"] as const).entries()) one.putTrace(ws, `trace_${i}`, 100 + i, { trace_id: `trace_${i}`, steps: [{ layer: "manas", n: i }] }, 2);
        const two = fresh(one);
        expect(two.getTrace("w1", "trace_0")).toBeUndefined(); // w1's third trace pushed its first out
        expect(two.getTrace("w1", "trace_1")).toEqual({ trace_id: "trace_1", steps: [{ layer: "manas", n: 1 }] });
        expect(two.getTrace("w1", "trace_3")).toEqual({ trace_id: "trace_3", steps: [{ layer: "manas", n: 3 }] });
        expect(two.getTrace("w2", "trace_2")).toEqual({ trace_id: "trace_2", steps: [{ layer: "manas", n: 2 }] }); // another workspace's traces do not count against w2
        expect(two.getTrace("w2", "trace_1")).toBeUndefined(); // another workspace's trace is not there
        expect(two.getTrace("w1", "trace_nope")).toBeUndefined();
      });
    });

    describe("a second handle on the same storage", () => {
      it("sees documents, replacements, forgets and vectors written by the first, after its indexes are loaded", () => {
        const writer = fresh();
        const ws = writer.ensureWorkspace("alpha", T0).id;
        put(writer, ws, "x.md", "# X\n\nThe first note mentions the albatross.\n");
        const reader = fresh(writer);
        expect(reader.findWorkspace("alpha")?.id).toBe(ws);
        expect(reader.searchLexical(ws, tokenize("albatross"), 10, {})).toHaveLength(1);

        // The reader's index is now loaded: later writes must reach it through the changes log.
        put(writer, ws, "y.md", "# Y\n\nA second note about the cormorant.\n");
        expect(reader.searchLexical(ws, tokenize("cormorant"), 10, {})).toHaveLength(1);
        put(writer, ws, "x.md", "# X\n\nThe first note now mentions the gannet.\n");
        expect(reader.searchLexical(ws, tokenize("albatross"), 10, {})).toEqual([]);
        const gannet = reader.searchLexical(ws, tokenize("gannet"), 10, {});
        expect(reader.getChunks(ws, gannet.map((h) => h.id)).map((c) => c.text)).toEqual(["# X\n\nThe first note now mentions the gannet."]);
        writer.forgetSource(ws, "y.md", T0);
        expect(reader.searchLexical(ws, tokenize("cormorant"), 10, {})).toEqual([]);
        expect(reader.wasForgotten(ws, { sourcePath: "y.md" })).toBe(true);

        const [chunk] = reader.documentChunks(ws, "x.md");
        expect(reader.searchDense(ws, "emb@1", unit(1, 0), 10, {})).toEqual([]);
        writer.putEmbeddings("emb@1", new Map([[chunk!.chunkHash, unit(1, 0)]]));
        expect(reader.searchDense(ws, "emb@1", unit(1, 0), 10, {}).map((h) => h.id)).toEqual([chunk!.id]);

        // And the other way round.
        put(reader, ws, "z.md", "# Z\n\nWritten by the second handle: puffin.\n");
        expect(writer.searchLexical(ws, tokenize("puffin"), 10, {})).toHaveLength(1);
        const wsB = reader.ensureWorkspace("beta", T0).id;
        put(reader, wsB, "b.md", "# B\n\nBeta's skua.\n");
        expect(writer.searchLexical(wsB, tokenize("skua"), 10, {})).toHaveLength(1);
        expect(writer.searchLexical(ws, tokenize("skua"), 10, {})).toEqual([]);
      });

      it("continues the audit chain written by the other handle", () => {
        const one = fresh();
        const ws = one.ensureWorkspace("alpha", T0).id;
        one.appendEvents(ws, [draft("a", 1)]);
        const two = fresh(one);
        two.appendEvents(ws, [draft("b", 2)]);
        one.appendEvents(ws, [draft("c", 3)]);
        const events = two.listEvents(ws, { limit: 10 });
        expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
        expect(verifyChain(events)).toBeNull();
      });
    });
  });
}
