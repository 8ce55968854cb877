// VectorIndex: exact cosine top-k below the prefilter size, and the sign-bit prefilter keeping true neighbours above it.
import { describe, expect, it } from "vitest";
import { ENTRY_BYTES } from "../../src/search/bm25.ts";
import { VectorIndex } from "../../src/search/vector-index.ts";
import { prng } from "../helpers/prng.ts";

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function gaussian(rand: ReturnType<typeof prng>, dims: number): Float32Array {
  return unit(
    Float32Array.from(
      { length: dims },
      () => Math.sqrt(-2 * Math.log(rand.next() + 1e-12)) * Math.cos(2 * Math.PI * rand.next()),
    ),
  );
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** An index of `n` random unit vectors with ids 1..n, and the vectors. */
function filled(
  rand: ReturnType<typeof prng>,
  dims: number,
  n: number,
): { index: VectorIndex; vectors: Float32Array[] } {
  const index = new VectorIndex(dims);
  const vectors = Array.from({ length: n }, () => gaussian(rand, dims));
  vectors.forEach((v, i) => index.add(i + 1, v));
  return { index, vectors };
}

describe("VectorIndex", () => {
  it("returns the exact cosine top k over its stored (int8) vectors, close to float cosine, honouring accept and remove", () => {
    const rand = prng(11);
    const { index, vectors } = filled(rand, 16, 500);
    index.remove(3);
    expect(index.get(3)).toBeUndefined();
    for (const [i, v] of vectors.entries())
      if (i !== 2) index.get(i + 1)!.forEach((x, d) => expect(Math.abs(x - v[d]!)).toBeLessThan(0.01));
    for (let q = 0; q < 20; q++) {
      const query = gaussian(rand, 16);
      const accept = q % 2 ? (id: number) => id % 5 !== 0 : undefined;
      const brute = vectors
        .map((_, i) => ({ id: i + 1, score: i === 2 ? -Infinity : dot(query, index.get(i + 1)!) }))
        .filter((d) => d.id !== 3 && (!accept || accept(d.id)))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      const got = index.search(query, 10, accept);
      expect(got.map((d) => d.id)).toEqual(brute.map((d) => d.id));
      expect(got[0]!.score).toBeCloseTo(brute[0]!.score, 5);
      expect(Math.abs(got[0]!.score - dot(query, vectors[got[0]!.id - 1]!))).toBeLessThan(0.02);
    }
  });

  // 100 dimensions take the prefilter's unrolled four-word path (GloVe's), 64 its loop over words.
  it.each([64, 100])(
    "above the exact limit, the prefilter (%i-d) finds a stored vector from a noisy copy, respects accept",
    (dims) => {
      const rand = prng(12);
      const { index, vectors } = filled(rand, dims, 25_000);
      let found = 0;
      for (let q = 0; q < 50; q++) {
        const target = rand.int(1, vectors.length);
        const noisy = unit(vectors[target - 1]!.map((x) => x + 0.05 * (rand.next() - 0.5)));
        const hits = index.search(noisy, 10);
        if (hits[0]?.id === target) found++;
        expect(index.search(noisy, 10, (id) => id !== target).some((h) => h.id === target)).toBe(false);
      }
      expect(found).toBeGreaterThanOrEqual(48);
    },
  );

  it("a restored index has room for an eighth more vectors: adding them grows no array", () => {
    const rand = prng(17);
    const { index } = filled(rand, 100, 16_000);
    const restored = VectorIndex.fromState(index.state());
    const before = restored.approxBytes();
    for (let id = 100_000; id < 102_000; id++) restored.add(id, gaussian(rand, 100));
    expect(restored.approxBytes() - before).toBe(2_000 * ENTRY_BYTES); // the id map's entries only
  });

  it("a saved state reads back into an index that answers every search the same (sign bits with the top bit set included)", () => {
    const rand = prng(13);
    const { index } = filled(rand, 100, 21_000);
    index.remove(7);
    const state = index.state();
    expect(state.arrays.codes.some((c) => c >= 2 ** 31)).toBe(true);
    const copy = VectorIndex.fromState(state);
    for (let q = 0; q < 20; q++) {
      const query = gaussian(rand, 100);
      expect(copy.search(query, 10)).toEqual(index.search(query, 10));
    }
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const again = copy.state();
    expect(again.slots).toBe(state.slots);
    for (const [name, array] of Object.entries(state.arrays))
      expect(bytes(again.arrays[name as keyof typeof state.arrays]!).equals(bytes(array!)), name).toBe(true);
  });
});
