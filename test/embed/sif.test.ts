import { describe, expect, it } from "vitest";
import { SIF_A, sifWeights, zipfNormalizer } from "../../src/embed/sif.ts";

describe("SIF weights from Zipf ranks", () => {
  it("normalises the Zipf-Mandelbrot distribution over the vocabulary", () => {
    const n = 1000;
    const z = zipfNormalizer(n, 1);
    let total = 0;
    for (let r = 1; r <= n; r++) total += 1 / ((r + 1) * z);
    expect(total).toBeCloseTo(1, 10);
  });

  it("weights frequent words down and rare words toward 1, monotonically", () => {
    const ranks = Uint32Array.from([0, 9, 99, 999, 9_999, 300_000]);
    const w = Array.from(sifWeights(ranks, 341_479));
    for (let i = 1; i < w.length; i++) expect(w[i]!).toBeGreaterThan(w[i - 1]!);
    expect(w[0]!).toBeLessThan(0.05); // "the": p ≈ 4%
    expect(w[3]!).toBeGreaterThan(0.9);
    expect(w[5]!).toBeGreaterThan(0.999);
  });

  it("equals a / (a + p) for the documented constants", () => {
    const z = zipfNormalizer(500, 1);
    const p = 1 / ((42 + 1 + 1) * z);
    expect(sifWeights(Uint32Array.from([42]), 500)[0]).toBeCloseTo(SIF_A / (SIF_A + p), 6);
  });
});
