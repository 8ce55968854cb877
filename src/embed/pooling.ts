// Sentence vectors from a transformer's token states: pooling over the real tokens (padding masked out), then L2.
import type { Pooling } from "./model-dir.ts";

/**
 * One vector per sequence of `hidden` ([batch, seq, dims], row-major), pooled over the tokens `lengths` says are real
 * (a batch is padded at the end). Sums in float64, as sentence-transformers' float32 sums differ only past 1e-6.
 */
export function pool(
  hidden: Float32Array,
  dims: readonly [number, number, number],
  lengths: readonly number[],
  mode: Pooling,
): Float32Array[] {
  const [batch, seq, width] = dims;
  const out: Float32Array[] = [];
  const acc = new Float64Array(width);
  for (let b = 0; b < batch; b++) {
    const n = Math.min(lengths[b]!, seq);
    const base = b * seq * width;
    if (mode === "cls" || n === 0) {
      out.push(hidden.slice(base, base + width));
      continue;
    }
    acc.fill(mode === "max" ? -Infinity : 0);
    for (let t = 0; t < n; t++)
      for (let d = 0, i = base + t * width; d < width; d++, i++)
        acc[d] = mode === "max" ? Math.max(acc[d]!, hidden[i]!) : acc[d]! + hidden[i]!;
    const v = new Float32Array(width);
    for (let d = 0; d < width; d++) v[d] = mode === "max" ? acc[d]! : acc[d]! / n;
    out.push(v);
  }
  return out;
}

/** Scales `v` to unit length in place (the all-zero vector stays zero). */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sq = 0;
  for (let d = 0; d < v.length; d++) sq += v[d]! * v[d]!;
  if (sq === 0) return v;
  const inv = 1 / Math.sqrt(sq);
  for (let d = 0; d < v.length; d++) v[d]! *= inv;
  return v;
}
