// Hamming distances on sign bits (the vector prefilter, GloVe's neighbour shortlist) count set bits in 32-bit words.

/** Set bits of a 32-bit integer (SWAR; V8 inlines it). A negative int32 counts its top bit too. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Set bits of four int32 words: each word's first two SWAR steps (nibbles of at most 4), then the four summed in pairs
 * and bytes before they could overflow (bytes of at most 32), so the last steps run once instead of four times.
 */
export function popcount4(a: number, b: number, c: number, d: number): number {
  a -= (a >>> 1) & 0x55555555;
  b -= (b >>> 1) & 0x55555555;
  c -= (c >>> 1) & 0x55555555;
  d -= (d >>> 1) & 0x55555555;
  a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
  c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
  d = (d & 0x33333333) + ((d >>> 2) & 0x33333333);
  let x = a + b;
  let y = c + d;
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  y = (y & 0x0f0f0f0f) + ((y >>> 4) & 0x0f0f0f0f);
  return Math.imul(x + y, 0x01010101) >>> 24; // imul: a float multiply would round past 2^53
}

/**
 * Into `out[i]`, the differing bits between `q` and the i-th `w`-word code in `codes` (four words, 100-d, unrolled);
 * with `histogram`, also counts each distance there (one pass instead of two).
 */
export function hammingDistances(
  codes: Int32Array,
  w: number,
  q: Int32Array,
  out: Uint16Array,
  histogram?: Uint32Array,
): void {
  const n = out.length;
  if (w === 4) {
    const [q0 = 0, q1 = 0, q2 = 0, q3 = 0] = q;
    if (histogram)
      for (let i = 0, o = 0; i < n; i++, o += 4) {
        const d = popcount4(codes[o]! ^ q0, codes[o + 1]! ^ q1, codes[o + 2]! ^ q2, codes[o + 3]! ^ q3);
        out[i] = d;
        histogram[d]!++;
      }
    else
      for (let i = 0, o = 0; i < n; i++, o += 4)
        out[i] = popcount4(codes[o]! ^ q0, codes[o + 1]! ^ q1, codes[o + 2]! ^ q2, codes[o + 3]! ^ q3);
    return;
  }
  for (let i = 0, o = 0; i < n; i++, o += w) {
    let d = 0;
    for (let j = 0; j < w; j++) d += popcount(codes[o + j]! ^ q[j]!);
    out[i] = d;
    if (histogram) histogram[d]!++;
  }
}
