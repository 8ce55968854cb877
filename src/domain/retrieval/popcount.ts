// Hamming distances on sign bits (the vector prefilter, GloVe's neighbour shortlist) count set bits in 32-bit words.

/** Set bits of a 32-bit integer (SWAR; V8 inlines it). A negative int32 counts its top bit too. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
