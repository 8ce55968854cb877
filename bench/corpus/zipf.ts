// Zipf-distributed ranks (p(r) ∝ 1/r^s) by inverse CDF: natural word frequencies, hence natural BM25 posting lengths.
import type { Rng } from "../../src/domain/text/prng.ts";

export class Zipf {
  private readonly cdf: Float64Array;

  constructor(
    readonly size: number,
    readonly exponent = 1.0,
  ) {
    this.cdf = new Float64Array(size);
    let sum = 0;
    for (let r = 0; r < size; r++) this.cdf[r] = sum += 1 / Math.pow(r + 1, exponent);
    for (let r = 0; r < size; r++) this.cdf[r]! /= sum;
  }

  /** A 0-based rank. */
  sample(rng: Rng): number {
    const u = rng();
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
