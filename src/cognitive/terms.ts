// BM25 terms of a chunk, computed once per chunk object (viveka and dhyana both compare term sets).
import { tokenize } from "../domain/tokenize.ts";
import type { ChunkRecord } from "../ports.ts";

const cache = new WeakMap<ChunkRecord, ReadonlySet<string>>();

export function termsOf(chunk: ChunkRecord): ReadonlySet<string> {
  let terms = cache.get(chunk);
  if (!terms) {
    terms = new Set(tokenize(chunk.text));
    cache.set(chunk, terms);
  }
  return terms;
}
