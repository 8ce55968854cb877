// Bit counts and Hamming distances on 32-bit words, checked bit by bit against a plain count, negative words included.
import { describe, expect, it } from "vitest";
import { hammingDistances, popcount, popcount4 } from "../../src/domain/retrieval/popcount.ts";
import { prng } from "../helpers/prng.ts";

/** Set bits of the low 32 bits, one at a time. */
const bits = (x: number) => Array.from({ length: 32 }, (_, i) => (x >>> i) & 1).reduce((a, b) => a + b, 0);

describe("popcount and hammingDistances", () => {
  it("count every set bit of any int32, the sign bit too", () => {
    const rand = prng(21);
    for (const x of [0, -1, 1, 0x7fffffff, -0x80000000, 0x55555555, -0x55555556]) expect(popcount(x)).toBe(bits(x));
    for (let i = 0; i < 2_000; i++) {
      const x = (rand.next() * 2 ** 32) | 0;
      expect(popcount(x)).toBe(bits(x));
    }
  });

  it("count four words at once as the sum of their counts, up to all 128 bits set", () => {
    const rand = prng(20);
    expect(popcount4(-1, -1, -1, -1)).toBe(128);
    expect(popcount4(0, 0, 0, 0)).toBe(0);
    expect(popcount4(-0x80000000, 0x7fffffff, -1, 1)).toBe(1 + 31 + 32 + 1);
    for (let i = 0; i < 2_000; i++) {
      const w = Array.from({ length: 4 }, () => (rand.next() * 2 ** 32) | 0) as [number, number, number, number];
      expect(popcount4(...w)).toBe(w.reduce((s, x) => s + bits(x), 0));
    }
  });

  it.each([3, 4])("count the distances of %i-word codes into a histogram in the same pass", (w) => {
    const rand = prng(30 + w);
    const n = 200;
    // Mostly all bits set, so the counts reach the top of the histogram.
    const codes = Int32Array.from({ length: n * w }, () => (rand.next() < 0.5 ? -1 : (rand.next() * 2 ** 32) | 0));
    const q = new Int32Array(w);
    const dist = new Uint16Array(n);
    const histogram = new Uint32Array(w * 32 + 1);
    hammingDistances(codes, w, q, dist, histogram);
    const expected = new Uint32Array(w * 32 + 1);
    for (let slot = 0; slot < n; slot++) {
      let d = 0;
      for (let j = 0; j < w; j++) d += bits(codes[slot * w + j]!);
      expect(dist[slot], `code ${slot}`).toBe(d);
      expected[d]!++;
    }
    expect([...histogram]).toEqual([...expected]);
  });

  it.each([1, 3, 4, 5])("measure the distance of every %i-word code to a query, word by word", (w) => {
    const rand = prng(22 + w);
    const n = 50;
    const codes = Int32Array.from({ length: n * w }, () => (rand.next() * 2 ** 32) | 0);
    const q = Int32Array.from({ length: w }, () => (rand.next() * 2 ** 32) | 0);
    const got = new Uint16Array(n);
    hammingDistances(codes, w, q, got);
    for (let slot = 0; slot < n; slot++) {
      let expected = 0;
      for (let j = 0; j < w; j++) expected += bits(codes[slot * w + j]! ^ q[j]!);
      expect(got[slot], `code ${slot}`).toBe(expected);
    }
  });
});
