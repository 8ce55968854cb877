import { describe, expect, it } from "vitest";
import { normalizeInPlace, pool } from "../../src/embed/pooling.ts";

// Two sequences of 3 token states, 2 wide; the second has one real token and two of padding.
const hidden = Float32Array.from([1, 2, 3, 4, -5, 6, /* second */ 7, -8, 100, 100, 100, 100]);
const dims = [2, 3, 2] as const;
const lengths = [3, 1];

describe("pool", () => {
  it("mean over the real tokens only", () => {
    expect(pool(hidden, dims, lengths, "mean").map((v) => [...v])).toEqual([
      [Math.fround((1 + 3 - 5) / 3), (2 + 4 + 6) / 3],
      [7, -8],
    ]);
  });

  it("cls takes the first token, max the largest real value per dimension", () => {
    expect(pool(hidden, dims, lengths, "cls").map((v) => [...v])).toEqual([
      [1, 2],
      [7, -8],
    ]);
    expect(pool(hidden, dims, lengths, "max").map((v) => [...v])).toEqual([
      [3, 6],
      [7, -8],
    ]);
  });
});

describe("normalizeInPlace", () => {
  it("scales to unit length and leaves the zero vector alone", () => {
    expect([...normalizeInPlace(Float32Array.from([3, 4]))]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...normalizeInPlace(new Float32Array(2))]).toEqual([0, 0]);
  });
});
