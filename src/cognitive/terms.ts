// A chunk's BM25 terms as a set, built once per chunk object (viveka and dhyana both compare term sets).
import type { ChunkRecord } from "../ports/documents.ts";

const cache = new WeakMap<ChunkRecord, ReadonlySet<string>>();

export function termsOf(chunk: ChunkRecord): ReadonlySet<string> {
  let terms = cache.get(chunk);
  if (!terms) {
    terms = new Set(chunk.terms === "" ? [] : chunk.terms.split(" "));
    cache.set(chunk, terms);
  }
  return terms;
}
