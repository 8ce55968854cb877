import { describe, expect, it } from "vitest";
import { meanInterval, statInterval } from "../../eval/bootstrap.ts";
import { reliability } from "../../eval/answers/trust.ts";

describe("meanInterval", () => {
  it("brackets the mean and narrows with more items", () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 2 ? 1 : 0));
    const [lo, hi] = meanInterval(values);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    const [lo4, hi4] = meanInterval(values.slice(0, 40));
    expect(hi4 - lo4).toBeGreaterThan(2 * (hi - lo));
  });

  it("resamples whole clusters: items that move together give a wider interval than independent ones", () => {
    // 10 articles of 20 questions each, every question of an article scored alike.
    const values = Array.from({ length: 200 }, (_, i) => (Math.floor(i / 20) % 2 ? 1 : 0));
    const articles = values.map((_, i) => `a${Math.floor(i / 20)}`);
    const [lo, hi] = meanInterval(values);
    const [clo, chi] = meanInterval(values, articles);
    expect(chi - clo).toBeGreaterThan(2 * (hi - lo));
  });

  it("is the same interval for the same input (seeded) and a point for constant values", () => {
    const values = [0.2, 0.9, 0.4, 0.7, 0.1];
    expect(meanInterval(values)).toEqual(meanInterval(values));
    expect(meanInterval([0.3, 0.3, 0.3], ["x", "y", "y"])).toEqual([0.3, 0.3]);
  });
});

describe("statInterval", () => {
  it("bootstraps any statistic, here the expected calibration error, and brackets the whole sample's value", () => {
    // 12 vaults of 10 answers: confidence 0.7, right 7 in 10 overall but 4 to 10 per vault, so the ECE varies by draw.
    const pairs = Array.from({ length: 120 }, (_, i) => ({
      confidence: 0.7,
      right: i % 10 < 4 + (Math.floor(i / 10) % 7),
    }));
    const vaults = pairs.map((_, i) => `v${Math.floor(i / 10)}`);
    const ece = reliability(pairs).ece;
    const [lo, hi] = statInterval(pairs, (drawn) => reliability(drawn).ece, vaults, 400);
    expect(lo).toBeLessThanOrEqual(ece);
    expect(hi).toBeGreaterThan(ece);
    expect(hi - lo).toBeGreaterThan(0.02);
  });
});
