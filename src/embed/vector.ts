// Pure Float32Array vector helpers shared across the project (normalisation, dot product, BLOB codec).

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

/**
 * Serialises a vector as little-endian float32 bytes (the native order on every platform
 * Node supports). Always copies, so later mutation of `v` never changes the stored blob.
 */
export function toBlob(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.byteLength);
  out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  return out;
}

/**
 * Inverse of `toBlob`. Copies into a fresh, 4-byte-aligned buffer, so it is safe for Buffers at
 * odd offsets (e.g. slices of Node's shared pool or SQLite BLOBs) and never aliases the input.
 */
export function fromBlob(blob: Uint8Array): Float32Array {
  if (blob.byteLength % Float32Array.BYTES_PER_ELEMENT !== 0) {
    throw new Error(`fromBlob: byte length ${blob.byteLength} is not a multiple of 4`);
  }
  const out = new Float32Array(blob.byteLength / Float32Array.BYTES_PER_ELEMENT);
  new Uint8Array(out.buffer).set(blob);
  return out;
}
