// How both stores keep a vector: little-endian float32 bytes (a SQLite BLOB, a PostgreSQL bytea).

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
