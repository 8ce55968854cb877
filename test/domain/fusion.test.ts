// Fusion (stage 1: base logit, monotone in every signal) and query-relative calibration (stage 2: a probability in
// [0, 1] that keeps stage 1's order within a query), with contributions that explain the score.
import { describe, expect, it } from "vitest";
import { calibrateQuery, fuse, keepsOrder, sigmoid, type QueryCalibration } from "../../src/domain/retrieval/fusion.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { prng } from "../helpers/prng.ts";

const grid = Array.from({ length: 21 }, (_, i) => i / 20);
const cosines = Array.from({ length: 21 }, (_, i) => -1 + i / 10);
const modes = (["lexicalOnly", "vectorOnly", "hybrid"] as const).map((m) => [m, defaultRetrievalConfig[m]] as const);
const IDENTITY: QueryCalibration = { gap: 0, best: 0, rank: 0, bias: 0 };
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

describe("fuse (stage 1)", () => {
  for (const [name, { fusion: w }] of modes) {
    it(`${name} base logit is non-decreasing in lexical and dense`, () => {
      for (const dense of [null, ...cosines]) {
        let prev = -Infinity;
        for (const lexical of grid) {
          const { logit } = fuse({ lexical, dense }, w);
          expect(logit).toBeGreaterThanOrEqual(prev);
          prev = logit;
        }
      }
      for (const lexical of grid) {
        let prev = -Infinity;
        for (const dense of cosines) {
          const { logit } = fuse({ lexical, dense }, w);
          expect(logit).toBeGreaterThanOrEqual(prev);
          prev = logit;
        }
      }
    });
  }

  it("vector mode ranks by the dense signal alone", () => {
    const w = defaultRetrievalConfig.vectorOnly.fusion;
    expect(w.lexical).toBe(0);
    expect(w.dense).toBeGreaterThan(0);
    expect(fuse({ lexical: 1, dense: 0.3 }, w).logit).toBe(fuse({ lexical: 0, dense: 0.3 }, w).logit);
  });

  it("is strictly increasing in each signal with positive weights", () => {
    const w = { lexical: 8, dense: 1, bias: -4.5 };
    expect(fuse({ lexical: 0.6, dense: 0.3 }, w).logit).toBeGreaterThan(fuse({ lexical: 0.5, dense: 0.3 }, w).logit);
    expect(fuse({ lexical: 0.5, dense: 0.4 }, w).logit).toBeGreaterThan(fuse({ lexical: 0.5, dense: 0.3 }, w).logit);
  });

  it("exposes contributions whose sum is the base logit, with no dense term when dense is null", () => {
    const w = { lexical: 8, dense: 1, bias: -4.5 };
    const withDense = fuse({ lexical: 0.25, dense: 0.5 }, w);
    expect(withDense.contributions).toEqual({ lexical: 2, dense: 0.5, bias: -4.5 });
    expect(withDense.logit).toBeCloseTo(-2, 12);
    const lexOnly = fuse({ lexical: 0.25, dense: null }, w);
    expect(Object.keys(lexOnly.contributions).sort()).toEqual(["bias", "lexical"]);
    expect(lexOnly.logit).toBeCloseTo(-2.5, 12);
  });
});

describe("calibrateQuery (stage 2)", () => {
  for (const [name, { calibration: w }] of modes) {
    it(`${name} default weights keep the order (gap > -1, rank <= 0)`, () => {
      expect(keepsOrder(w)).toBe(true);
    });
  }

  it("keepsOrder rejects weights that could reorder a query's candidates", () => {
    expect(keepsOrder({ ...IDENTITY, gap: -1 })).toBe(false);
    expect(keepsOrder({ ...IDENTITY, rank: 0.1 })).toBe(false);
    expect(keepsOrder({ ...IDENTITY, best: Number.NaN })).toBe(false);
    expect(keepsOrder({ gap: -0.9, best: -3, rank: -2, bias: 5 })).toBe(true);
  });

  it("with zero weights is stage 1 alone: sigmoid(base)", () => {
    const bases = [2, 0.5, 0.5, -1, -7];
    expect(calibrateQuery(bases, IDENTITY).map((c) => c.score)).toEqual(bases.map(sigmoid));
  });

  it("never changes the ranking: scores follow the base logits for every mode's weights and for random order-keeping weights (seeded)", () => {
    const rnd = prng(20261122);
    const weights: QueryCalibration[] = [
      ...modes.map(([, m]) => m.calibration),
      { gap: -0.9, best: 0.3, rank: 0, bias: 0 },
      { gap: 0, best: 0, rank: -2, bias: 0 },
    ];
    for (let i = 0; i < 50; i++)
      weights.push({
        gap: -0.99 + rnd.next() * 3,
        best: rnd.next() * 4 - 2,
        rank: -rnd.next() * 3,
        bias: rnd.next() * 6 - 3,
      });
    for (const w of weights) {
      for (let trial = 0; trial < 20; trial++) {
        const n = rnd.int(1, 150);
        const scale = rnd.pick([1e-9, 0.01, 1, 10]);
        // Many near-ties and exact ties, like real candidate pools (identical texts, zero signals).
        const bases = Array.from({ length: n }, () => Math.round((rnd.next() * 12 - 9) / scale) * scale).sort(
          (a, b) => b - a,
        );
        const out = calibrateQuery(bases, w);
        expect(out).toHaveLength(n);
        const broken: string[] = [];
        for (let i = 1; i < n; i++) {
          const [prev, cur] = [out[i - 1]!.score, out[i]!.score];
          if (bases[i] === bases[i - 1] ? cur !== prev : cur > prev)
            broken.push(`#${i}: base ${bases[i - 1]} -> ${bases[i]}, score ${prev} -> ${cur}`);
        }
        expect(broken, JSON.stringify(w)).toEqual([]);
        // Stable sorting by score (then by position, as the retriever breaks ties by id) gives back the input order.
        const reordered = out.map((c, i) => ({ s: c.score, i })).sort((a, b) => b.s - a.s || a.i - b.i);
        expect(reordered.every((x, i) => x.i === i)).toBe(true);
        expect(out.every((c) => c.score >= 0 && c.score <= 1)).toBe(true);
      }
    }
  });

  it("is strictly decreasing where the base logit is (a real gap is never flattened away)", () => {
    for (const [, { calibration: w }] of modes) {
      const scores = calibrateQuery([3, 1, 0, -1, -2, -4], w).map((c) => c.score);
      for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThan(scores[i - 1]!);
    }
  });

  it("splits the logit into gap, query_best, rank and calibration_bias terms that add up with the base logit", () => {
    const w = { gap: 0.5, best: -0.25, rank: -1, bias: 0.75 };
    const bases = [2, 1, 1, -3];
    const out = calibrateQuery(bases, w);
    expect(out[0]!.contributions).toEqual({ gap: 0, query_best: -0.5, rank: 0, calibration_bias: 0.75 });
    // ties share the better rank: both 1s are rank 2, the next is rank 4
    expect(out[1]!.contributions.rank).toBeCloseTo(-Math.log(2), 12);
    expect(out[2]!.contributions.rank).toBeCloseTo(-Math.log(2), 12);
    expect(out[3]!.contributions).toMatchObject({ gap: -2.5, query_best: -0.5, calibration_bias: 0.75 });
    expect(out[3]!.contributions.rank).toBeCloseTo(-Math.log(4), 12);
    out.forEach((c, i) => expect(sigmoid(bases[i]! + sum(c.contributions))).toBeCloseTo(c.score, 12));
  });

  it("rejects base logits that are not sorted best first", () => {
    expect(() => calibrateQuery([1, 2], IDENTITY)).toThrow(/sorted/);
    expect(calibrateQuery([], IDENTITY)).toEqual([]);
  });

  it("stays within [0, 1] for extreme logits", () => {
    const w = defaultRetrievalConfig.hybrid.calibration;
    expect(calibrateQuery([1e6], w)[0]!.score).toBe(1);
    expect(calibrateQuery([-1e6], w)[0]!.score).toBe(0);
  });
});
