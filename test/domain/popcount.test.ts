// Bit counts and Hamming distances on 32-bit words, checked bit by bit against a plain count, negative words included.
import { describe, expect, it } from "vitest";
import { hammingDistances, popcount } from "../../src/domain/retrieval/popcount.ts";
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
