// Fusion + calibration: a probability in [0, 1], monotone in every signal, contributions that explain it.
import { describe, expect, it } from "vitest";
import { fuse, sigmoid } from "../../src/domain/fusion.ts";
import { defaultRetrievalConfig } from "../../src/services/retrieval-config.ts";

const grid = Array.from({ length: 21 }, (_, i) => i / 20);
const cosines = Array.from({ length: 21 }, (_, i) => -1 + i / 10);

describe("fuse", () => {
  for (const [name, w] of Object.entries(defaultRetrievalConfig).filter(([k]) => k !== "candidates") as [string, { lexical: number; dense: number; bias: number }][]) {
    it(`${name} weights give scores in [0, 1], non-decreasing in lexical and dense`, () => {
      for (const dense of [null, ...cosines]) {
        let prev = -1;
        for (const lexical of grid) {
          const { score } = fuse({ lexical, dense }, w);
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
          expect(score).toBeGreaterThanOrEqual(prev);
          prev = score;
        }
      }
      if (w.dense > 0)
        for (const lexical of grid) {
          let prev = -1;
          for (const dense of cosines) {
            const { score } = fuse({ lexical, dense }, w);
            expect(score).toBeGreaterThanOrEqual(prev);
            prev = score;
          }
        }
    });
  }

  it("is strictly increasing in each signal with positive weights", () => {
    const w = { lexical: 8, dense: 1, bias: -4.5 };
    expect(fuse({ lexical: 0.6, dense: 0.3 }, w).score).toBeGreaterThan(fuse({ lexical: 0.5, dense: 0.3 }, w).score);
    expect(fuse({ lexical: 0.5, dense: 0.4 }, w).score).toBeGreaterThan(fuse({ lexical: 0.5, dense: 0.3 }, w).score);
  });

  it("exposes contributions whose sum is the logit of the score, with no dense term when dense is null", () => {
    const w = { lexical: 8, dense: 1, bias: -4.5 };
    const withDense = fuse({ lexical: 0.25, dense: 0.5 }, w);
    expect(withDense.contributions).toEqual({ lexical: 2, dense: 0.5, bias: -4.5 });
    expect(withDense.score).toBeCloseTo(sigmoid(-2), 12);
    const lexOnly = fuse({ lexical: 0.25, dense: null }, w);
    expect(Object.keys(lexOnly.contributions).sort()).toEqual(["bias", "lexical"]);
    expect(lexOnly.score).toBeCloseTo(sigmoid(-2.5), 12);
  });

  it("stays within [0, 1] for extreme logits", () => {
    expect(fuse({ lexical: 1, dense: 1 }, { lexical: 1e6, dense: 1e6, bias: 0 }).score).toBe(1);
    expect(fuse({ lexical: 0, dense: -1 }, { lexical: 1, dense: 1e6, bias: -1e6 }).score).toBe(0);
  });
});
