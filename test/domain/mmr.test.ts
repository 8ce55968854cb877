// MMR: diversity trades relevance for novelty; similarity and near-duplicate detection.
import { describe, expect, it } from "vitest";
import { mmrOrder, type MmrItem } from "../../src/domain/retrieval/mmr.ts";
import { isNearDuplicate, jaccard, numberTerms, similarity } from "../../src/domain/retrieval/similarity.ts";
import { prng } from "../helpers/prng.ts";

/** Items over one numbering of their terms, as an index would give them. */
const items = (...specs: [relevance: number, terms: string][]): MmrItem[] => {
  const ids = numberTerms(specs.map(([, terms]) => terms.split(" ")));
  return specs.map(([relevance], i) => ({ relevance, terms: ids[i]! }));
};
/** The reference: Jaccard of string sets, computed the plain way. */
const setJaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  const inter = [...a].filter((t) => b.has(t)).length;
  return a.size + b.size === 0 ? 1 : inter / (a.size + b.size - inter);
};

describe("mmrOrder", () => {
  const three = items(
    [1.0, "sqlite wal durability log"],
    [0.95, "sqlite wal durability checkpoint"],
    [0.8, "postgres replication stream"],
  );

  it("with diversity 0 is pure relevance order", () => {
    expect([...mmrOrder(three, 0)]).toEqual([0, 1, 2]);
  });

  it("with diversity picks a less relevant but novel item second instead of the near-copy", () => {
    const order = [...mmrOrder(three, 0.5)];
    expect(order[0]).toBe(0);
    expect(order[1]).toBe(2);
    expect(order).toHaveLength(3);
    expect(new Set(order).size).toBe(3);
  });

  it("returns a permutation for any diversity", () => {
    const many = items(
      ...Array.from({ length: 25 }, (_, i): [number, string] => [(i * 37) % 11, `t${i % 5} t${i % 7} u${i}`]),
    );
    for (const d of [0, 0.1, 0.5, 0.9, 1])
      expect([...mmrOrder(many, d)].sort((a, b) => a - b)).toEqual(many.map((_, i) => i));
    expect([...mmrOrder([], 0.3)]).toEqual([]);
  });
});

describe("similarity", () => {
  it("jaccard of term sets", () => {
    const [ab, bc, none, a] = numberTerms([["a", "b"], ["b", "c", "c"], [], ["a"]]);
    expect(ab).toEqual(Int32Array.from([0, 1]));
    expect(bc).toEqual(Int32Array.from([1, 2])); // distinct and ascending
    expect(jaccard(ab!, bc!)).toBeCloseTo(1 / 3, 12);
    expect(jaccard(none!, none!)).toBe(1);
    expect(jaccard(a!, none!)).toBe(0);
  });

  it("uses the larger of cosine and jaccard when both have vectors", () => {
    const [x, y] = numberTerms([["x"], ["y"]]);
    const a = { terms: x!, vector: new Float32Array([1, 0]) };
    const b = { terms: y!, vector: new Float32Array([0.6, 0.8]) };
    expect(similarity(a, b)).toBeCloseTo(0.6, 6);
    expect(similarity({ terms: a.terms }, { terms: b.terms })).toBe(0);
  });

  it("near-duplicates are term sets with Jaccard >= 0.8", () => {
    const base = "one two three four five six seven eight nine ten".split(" ");
    const near = (a: string[], b: string[]) => {
      const [x, y] = numberTerms([a, b]);
      return isNearDuplicate({ terms: x! }, { terms: y! });
    };
    // 9 shared of 11 distinct = 0.818.
    expect(near(base, [...base.slice(0, 9), "eleven"])).toBe(true);
    // 8 shared of 12 distinct = 0.667.
    expect(near(base, [...base.slice(0, 8), "eleven", "twelve"])).toBe(false);
    expect(near(base, [...base, "eleven"])).toBe(true);
    expect(near(base, base.slice(0, 5))).toBe(false);
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
      const [x, y] = numberTerms([[...a], [...b]]);
      expect(jaccard(x!, y!), `trial ${trial}`).toBeCloseTo(setJaccard(a, b), 12);
      expect(isNearDuplicate({ terms: x! }, { terms: y! }, threshold), `trial ${trial}`).toBe(
        setJaccard(a, b) >= threshold,
      );
    }
  });
});
