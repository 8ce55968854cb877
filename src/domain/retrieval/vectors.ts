// Pure Float32Array vector math shared across the project: length, normalisation, dot product, cosine.

/** Euclidean length of `v`. */
export function norm(v: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    sum += x * x;
  }
  return Math.sqrt(sum);
}

/** Returns a new unit-length copy of `v`; an all-zero (or non-finite) vector yields all zeros. */
export function normalize(v: Float32Array): Float32Array {
  const out = new Float32Array(v.length);
  const n = norm(v);
  if (n === 0 || !Number.isFinite(n)) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}

/** Dot product; for unit vectors this is the cosine similarity. Throws on length mismatch. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw new Error(`dot: dimension mismatch (${a.length} vs ${b.length})`);
  }
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Cosine similarity of arbitrary (not necessarily unit) vectors; 0 if either is all-zero. */
export function cosine(a: Float32Array, b: Float32Array): number {
  const d = dot(a, b);
  const n = norm(a) * norm(b);
  return n === 0 ? 0 : d / n;
}
