// Seeded PRNG (mulberry32) for property-style tests: failures reproduce from the printed seed.
import { mulberry32 } from "../../src/domain/text/prng.ts";
export function prng(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
} {
  const next = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: (xs) => xs[int(0, xs.length - 1)]! };
}
