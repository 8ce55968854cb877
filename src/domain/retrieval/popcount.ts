// Hamming distances on sign bits (the vector prefilter, GloVe's neighbour shortlist) count set bits in 32-bit words.

/** Set bits of a 32-bit integer (SWAR; V8 inlines it). A negative int32 counts its top bit too. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Into `out[i]`, the differing bits between `q` and the i-th `w`-word code in `codes` (four words, 100-d, unrolled). */
export function hammingDistances(codes: Int32Array, w: number, q: Int32Array, out: Uint16Array): void {
  const n = out.length;
  if (w === 4) {
    const [q0 = 0, q1 = 0, q2 = 0, q3 = 0] = q;
    for (let i = 0, o = 0; i < n; i++, o += 4)
      out[i] =
        popcount(codes[o]! ^ q0) +
        popcount(codes[o + 1]! ^ q1) +
        popcount(codes[o + 2]! ^ q2) +
        popcount(codes[o + 3]! ^ q3);
    return;
  }
  for (let i = 0, o = 0; i < n; i++, o += w) {
    let d = 0;
    for (let j = 0; j < w; j++) d += popcount(codes[o + j]! ^ q[j]!);
    out[i] = d;
  }
}
