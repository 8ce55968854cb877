// MMR: diversity trades relevance for novelty; similarity and near-duplicate detection.
import { describe, expect, it } from "vitest";
import { mmrOrder, type MmrItem } from "../../src/domain/retrieval/mmr.ts";
import { isNearDuplicate, jaccard, similarity } from "../../src/domain/retrieval/similarity.ts";
import { prng } from "../helpers/prng.ts";

const item = (relevance: number, terms: string): MmrItem => ({ relevance, terms: new Set(terms.split(" ")) });

describe("mmrOrder", () => {
  const items = [item(1.0, "sqlite wal durability log"), item(0.95, "sqlite wal durability checkpoint"), item(0.8, "postgres replication stream")];

  it("with diversity 0 is pure relevance order", () => {
    expect([...mmrOrder(items, 0)]).toEqual([0, 1, 2]);
  });

  it("with diversity picks a less relevant but novel item second instead of the near-copy", () => {
    const order = [...mmrOrder(items, 0.5)];
    expect(order[0]).toBe(0);
    expect(order[1]).toBe(2);
    expect(order).toHaveLength(3);
    expect(new Set(order).size).toBe(3);
  });

  it("returns a permutation for any diversity", () => {
    const many = Array.from({ length: 25 }, (_, i) => item((i * 37) % 11, `t${i % 5} t${i % 7} u${i}`));
    for (const d of [0, 0.1, 0.5, 0.9, 1]) expect([...mmrOrder(many, d)].sort((a, b) => a - b)).toEqual(many.map((_, i) => i));
    expect([...mmrOrder([], 0.3)]).toEqual([]);
  });
});

describe("similarity", () => {
  it("jaccard of term sets", () => {
    expect(jaccard(new Set(["a", "b"]), new Set(["b", "c"]))).toBeCloseTo(1 / 3, 12);
    expect(jaccard(new Set(), new Set())).toBe(1);
    expect(jaccard(new Set(["a"]), new Set())).toBe(0);
  });

  it("uses the larger of cosine and jaccard when both have vectors", () => {
    const a = { terms: new Set(["x"]), vector: new Float32Array([1, 0]) };
    const b = { terms: new Set(["y"]), vector: new Float32Array([0.6, 0.8]) };
    expect(similarity(a, b)).toBeCloseTo(0.6, 6);
    expect(similarity({ terms: a.terms }, { terms: b.terms })).toBe(0);
  });

  it("near-duplicates are term sets with Jaccard >= 0.8", () => {
    const base = "one two three four five six seven eight nine ten".split(" ");
    // 9 shared of 11 distinct = 0.818.
    expect(isNearDuplicate({ terms: new Set(base) }, { terms: new Set([...base.slice(0, 9), "eleven"]) })).toBe(true);
    // 8 shared of 12 distinct = 0.667.
    expect(isNearDuplicate({ terms: new Set(base) }, { terms: new Set([...base.slice(0, 8), "eleven", "twelve"]) })).toBe(false);
    expect(isNearDuplicate({ terms: new Set(base) }, { terms: new Set([...base, "eleven"]) })).toBe(true);
    expect(isNearDuplicate({ terms: new Set(base) }, { terms: new Set(base.slice(0, 5)) })).toBe(false);
  });

  it("the early-stopping check answers exactly as Jaccard >= threshold, at and around the boundary", () => {
    const rng = prng(20261125);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    for (let trial = 0; trial < 3000; trial++) {
      const pickSet = () => new Set(words.filter(() => rng.next() < rng.pick([0.1, 0.3, 0.6, 0.9])));
      const a = pickSet();
      // Half the pairs are a small edit of the first set, so many sit near the threshold.
      const b = rng.next() < 0.5 ? new Set([...a].filter(() => rng.next() < 0.9).concat(rng.pick(words))) : pickSet();
      const threshold = rng.pick([0.5, 0.75, 0.8, 0.9, 1]);
      expect(isNearDuplicate({ terms: a }, { terms: b }, threshold), `trial ${trial}`).toBe(jaccard(a, b) >= threshold);
    }
  });
});
