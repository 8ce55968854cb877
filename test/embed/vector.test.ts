import { describe, expect, it } from "vitest";
import { cosine, dot, norm, normalize } from "../../src/domain/retrieval/vectors.ts";
import { fromBlob, toBlob } from "../../src/store/vector-blob.ts";

describe("vector helpers", () => {
  it("normalize returns a unit-length copy and leaves the input untouched", () => {
    const v = new Float32Array([3, 4]);
    const n = normalize(v);
    expect(Array.from(n)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(norm(n)).toBeCloseTo(1, 6);
    expect(Array.from(v)).toEqual([3, 4]);
  });

  it("normalize maps the zero vector to zeros (no NaN)", () => {
    expect(Array.from(normalize(new Float32Array(3)))).toEqual([0, 0, 0]);
  });

  it("dot and cosine", () => {
    const a = new Float32Array([1, 2, 3]);
    const b = new Float32Array([4, -5, 6]);
    expect(dot(a, b)).toBe(12);
    expect(cosine(a, a)).toBeCloseTo(1, 6);
    expect(cosine(a, new Float32Array(3))).toBe(0);
    expect(() => dot(a, new Float32Array(2))).toThrow(/dimension mismatch/);
  });

  it("toBlob/fromBlob round-trip exactly and do not alias their inputs", () => {
    const v = new Float32Array([0.1, -2.5, 1e-30, 3.4e38]);
    const blob = toBlob(v);
    expect(blob.byteLength).toBe(16);
    v[0] = 99;
    const back = fromBlob(blob);
    expect(Array.from(back)).toEqual(Array.from(new Float32Array([0.1, -2.5, 1e-30, 3.4e38])));
    blob[0] = 0xff;
    expect(back[0]).toBeCloseTo(0.1, 6);
  });

  it("fromBlob copes with Buffers at unaligned offsets", () => {
    const src = toBlob(new Float32Array([1.5, -7, 42]));
    const backing = Buffer.alloc(src.length + 3);
    src.copy(backing, 3);
    const unaligned = backing.subarray(3);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(Array.from(fromBlob(unaligned))).toEqual([1.5, -7, 42]);
  });

  it("toBlob respects subarray views", () => {
    const whole = new Float32Array([1, 2, 3, 4]);
    expect(Array.from(fromBlob(toBlob(whole.subarray(1, 3))))).toEqual([2, 3]);
  });

  it("fromBlob rejects lengths that are not a multiple of 4", () => {
    expect(() => fromBlob(Buffer.alloc(6))).toThrow(/multiple of 4/);
  });
});
