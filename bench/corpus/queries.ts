// Queries of 3-8 words drawn from the same Zipf vocabulary, all distinct (so no cache answers them).
import { intBetween, mulberry32 } from "../../src/domain/text/prng.ts";
import { TextGenerator } from "./text.ts";

export function generateQueries(vocab: readonly string[], count: number, seed: number): string[] {
  const rng = mulberry32(seed);
  const text = new TextGenerator(vocab, rng);
  const out = new Set<string>();
  while (out.size < count) out.add(text.words(intBetween(rng, 3, 8)).join(" "));
  return [...out];
}

/** Splits one list into consecutive disjoint slices of the given sizes. */
export function slices<T>(items: readonly T[], ...sizes: number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const n of sizes) {
    out.push(items.slice(at, at + n));
    at += n;
  }
  return out;
}
