// BM25 index: ranking, removal, filtered search, point scores and the normalising upper bound.
import { describe, expect, it } from "vitest";
import { Bm25Index, ENTRY_BYTES } from "../../src/search/bm25.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import { prng } from "../helpers/prng.ts";

function indexOf(docs: Record<number, string>): Bm25Index {
  const index = new Bm25Index();
  for (const [id, text] of Object.entries(docs)) index.add(Number(id), tokenize(text));
  return index;
}

const corpus = {
  1: "SQLite uses a write-ahead log for durability.",
  2: "The write-ahead log in SQLite allows readers during writes. The log is checkpointed.",
  3: "Postgres replicates with streaming replication.",
  4: "Vector search uses cosine similarity over embeddings.",
  5: "Bananas are yellow fruit.",
};

describe("Bm25Index", () => {
  it("a restored index has room for an eighth more documents: adding them grows no array, and it answers as the original", () => {
    const rand = prng(5);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    // Every document has every word (some twice): each posting list then grows by exactly the documents added.
    const doc = () => [...words, ...words.filter(() => rand.next() < 0.3)];
    const original = new Bm25Index();
    for (let id = 1; id <= 800; id++) original.add(id, doc());
    const restored = Bm25Index.fromState(original.state());
    const before = restored.approxBytes();
    for (let id = 801; id <= 900; id++) {
      const terms = doc();
      original.add(id, terms);
      restored.add(id, terms);
    }
    expect(restored.approxBytes() - before).toBe(100 * ENTRY_BYTES); // the id map's entries only
    for (let q = 0; q < 20; q++) {
      const terms = [words[q]!, words[(q * 7) % words.length]!];
      expect(restored.search(terms, 10)).toEqual(original.search(terms, 10));
    }
  });

  it("a bulk load holds what the same adds build, with each posting list at its length and an eighth more", () => {
    const rand = prng(9);
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    // Zipf-like: a few words in most documents, most in few; repeats give term frequencies above one.
    const doc = () =>
      Array.from(
        { length: 5 + Math.floor(rand.next() * 40) },
        () => words[Math.floor(words.length * rand.next() ** 3)]!,
      );
    const docs = Array.from({ length: 3_000 }, doc);
    const added = new Bm25Index();
    const loaded = new Bm25Index();
    loaded.beginLoad();
    docs.forEach((terms, i) => {
      added.add(i + 1, terms);
      loaded.add(i + 1, terms);
    });
    loaded.endLoad();
    expect(loaded.state()).toEqual(added.state());
    // Grown by appends, the lists hold a quarter of slack on average; loaded, an eighth (restoredRoom).
    expect(loaded.approxBytes()).toBeLessThan(added.approxBytes());
    for (let q = 0; q < 30; q++) {
      const terms = [words[q]!, words[(q * 13) % words.length]!, words[(q * 7) % 50]!];
      expect(loaded.search(terms, 10)).toEqual(added.search(terms, 10));
    }
    // After the load it is an ordinary index: adds and removes work as on the other.
    for (const index of [added, loaded]) {
      index.add(5_000, ["w1", "w2", "w2"]);
      index.remove(7);
    }
    expect(loaded.search(["w2", "w1"], 10)).toEqual(added.search(["w2", "w1"], 10));
  });

  it("refuses a bulk load into an index that holds documents, and a remove while one runs", () => {
    const index = new Bm25Index();
    index.add(1, ["a"]);
    expect(() => index.beginLoad()).toThrow(/empty index/);
    const loading = new Bm25Index();
    loading.beginLoad();
    loading.add(1, ["a"]);
    expect(() => loading.remove(1)).toThrow(/bulk load/);
  });

  it("ranks documents that match more query terms above those that match fewer, and skips non-matches", () => {
    const index = indexOf(corpus);
    const hits = index.search(tokenize("sqlite write-ahead log checkpoint"), 10);
    expect(hits.map((h) => h.id).slice(0, 2)).toEqual([2, 1]);
    expect(hits.map((h) => h.id)).not.toContain(5);
    expect(hits.every((h) => h.score > 0)).toBe(true);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  });

  it("weighs rare terms above common ones", () => {
    const index = indexOf({ 1: "common rare", 2: "common filler", 3: "common other", 4: "common words" });
    const [top] = index.search(tokenize("common rare"), 1);
    expect(top?.id).toBe(1);
    expect(index.score(tokenize("rare"), 1)).toBeGreaterThan(index.score(tokenize("common"), 1));
  });

  it("honours k and returns nothing for unknown terms or an empty index", () => {
    const index = indexOf(corpus);
    expect(index.search(tokenize("sqlite log"), 1)).toHaveLength(1);
    expect(index.search(tokenize("zeppelin"), 5)).toEqual([]);
    expect(new Bm25Index().search(tokenize("sqlite"), 5)).toEqual([]);
    expect(index.size).toBe(5);
  });

  it("forgets removed documents in search, score and size, and ignores unknown or repeated removes", () => {
    const index = indexOf(corpus);
    index.remove(2);
    index.remove(2);
    index.remove(999);
    expect(index.size).toBe(4);
    expect(index.has(2)).toBe(false);
    expect(index.search(tokenize("checkpointed readers"), 10)).toEqual([]);
    expect(index.score(tokenize("sqlite"), 2)).toBe(0);
    expect(index.search(tokenize("sqlite"), 10).map((h) => h.id)).toEqual([1]);
  });

  it("ignores a second add of the same id (re-adding after remove works)", () => {
    const index = indexOf(corpus);
    index.add(5, tokenize("sqlite sqlite sqlite"));
    expect(index.score(tokenize("sqlite"), 5)).toBe(0);
    index.remove(5);
    index.add(5, tokenize("sqlite sqlite sqlite"));
    expect(index.score(tokenize("sqlite"), 5)).toBeGreaterThan(0);
  });

  it("filters inside the search with accept, so k results survive filtering", () => {
    const index = indexOf(corpus);
    const terms = tokenize("sqlite log replication cosine");
    const all = index.search(terms, 10);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const filtered = index.search(terms, 1, (id) => id === 4);
    expect(filtered).toEqual([{ id: 4, score: all.find((h) => h.id === 4)!.score }]);
    expect(index.search(terms, 10, () => false)).toEqual([]);
  });

  it("score(terms, id) equals the search score and maxScore bounds every score (random corpora)", () => {
    const rnd = prng(20240611);
    const vocab = Array.from({ length: 40 }, (_, i) => `term${i}`);
    for (let round = 0; round < 25; round++) {
      const index = new Bm25Index();
      const n = rnd.int(1, 60);
      for (let id = 1; id <= n; id++)
        index.add(
          id * 7,
          Array.from({ length: rnd.int(0, 30) }, () => rnd.pick(vocab)),
        );
      for (let id = 1; id <= n; id++) if (rnd.next() < 0.2) index.remove(id * 7);
      const query = Array.from({ length: rnd.int(1, 5) }, () => rnd.pick(vocab));
      const max = index.maxScore(query);
      for (const hit of index.search(query, 1000)) {
        expect(index.score(query, hit.id)).toBeCloseTo(hit.score, 9);
        expect(hit.score).toBeLessThanOrEqual(max + 1e-9);
      }
    }
  });

  it("keeps scores consistent after many removals trigger compaction", () => {
    const index = new Bm25Index();
    const filler = Array.from({ length: 30 }, (_, i) => `w${i}`);
    for (let id = 0; id < 3000; id++) index.add(id, [...filler, id % 2 === 0 ? "even" : "odd"]);
    const before = index.score(["odd"], 2999);
    for (let id = 0; id < 2999; id += 2) index.remove(id);
    for (let id = 1; id < 2000; id += 2) index.remove(id);
    expect(index.size).toBe(500);
    expect(index.search(["even"], 10)).toEqual([]);
    const hits = index.search(["odd"], 1000);
    expect(hits).toHaveLength(500);
    for (const h of hits) expect(h.id).toBeGreaterThanOrEqual(2000);
    expect(index.score(["odd"], 2999)).toBeCloseTo(hits.find((h) => h.id === 2999)!.score, 9);
    expect(before).toBeGreaterThan(0);
    // After compaction every survivor still knows its own terms: removing some and adding new ones scores exactly as a
    // freshly built index of the same documents does.
    const fresh = new Bm25Index();
    const doc = (id: number) => [...filler.slice(0, (id % 7) + 3), id % 3 === 0 ? "third" : "odd"];
    for (let id = 2001; id < 3000; id += 2) if (id % 5 === 0) index.remove(id);
    for (let id = 3000; id < 3100; id++) index.add(id, doc(id));
    for (let id = 2001; id < 3000; id += 2) if (id % 5 !== 0) fresh.add(id, [...filler, "odd"]);
    for (let id = 3000; id < 3100; id++) fresh.add(id, doc(id));
    expect(index.size).toBe(fresh.size);
    for (const q of [["odd"], ["third", "w1"], ["w29", "odd", "w4"]])
      expect(index.search(q, 50)).toEqual(fresh.search(q, 50));
  });

  it("pruned search returns exactly the brute-force top k, with and without a filter (Zipf corpora with very common terms)", () => {
    for (const seed of [1, 2, 3]) {
      const rand = prng(seed);
      const vocab = Array.from({ length: 400 }, (_, i) => `t${i}`);
      const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.pow(vocab.length, rand.next())) - 1)]!;
      const index = new Bm25Index();
      for (let id = 1; id <= 3000; id++) index.add(id, Array.from({ length: rand.int(5, 60) }, zipf));
      for (let q = 0; q < 30; q++) {
        const query = Array.from({ length: rand.int(1, 8) }, zipf);
        const k = rand.pick([1, 10, 60]);
        const accept = q % 3 === 0 ? (id: number) => id % 7 !== 0 : undefined;
        const brute = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, score: index.score(query, i + 1) }))
          .filter((d) => d.score > 0 && (!accept || accept(d.id)))
          .sort((a, b) => b.score - a.score || a.id - b.id)
          .slice(0, k);
        const got = index.search(query, k, accept);
        expect(
          got.map((d) => d.id),
          `seed ${seed} query ${query.join(" ")} k ${k}`,
        ).toEqual(brute.map((d) => d.id));
        got.forEach((d, i) => expect(d.score).toBeCloseTo(brute[i]!.score, 9));
      }
    }
  });
  it("skips removed documents still in posting lists, and term id views taken before a compaction keep their terms", () => {
    const rand = prng(9);
    const vocab = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.pow(vocab.length, rand.next())) - 1)]!;
    const index = new Bm25Index();
    const docs = new Map<number, string[]>();
    for (let id = 1; id <= 3000; id++) docs.set(id, Array.from({ length: rand.int(5, 40) }, zipf));
    for (const [id, terms] of docs) index.add(id, terms);
    const views = [5, 6, 2999].map((id) => ({ id, terms: index.termIdsOf(id), copy: index.termIdsOf(id).slice() }));
    // Every third document removed: too few for a compaction, so their postings stay in the lists.
    for (let id = 3; id <= 3000; id += 3) index.remove(id);
    for (let q = 0; q < 20; q++) {
      const query = Array.from({ length: rand.int(1, 6) }, zipf);
      const brute = [...docs.keys()]
        .filter((id) => index.has(id))
        .map((id) => ({ id, score: index.score(query, id) }))
        .filter((d) => d.score > 0)
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, 10);
      expect(index.search(query, 10).map((d) => d.id)).toEqual(brute.map((d) => d.id));
    }
    for (let id = 1; id <= 3000; id++) if (id % 3 !== 0) index.remove(id);
    index.add(4000, ["t1", "t2"]); // the removals above compacted the arena
    for (const v of views) expect([...v.terms], `view of ${v.id}`).toEqual([...v.copy]);
  });
});
