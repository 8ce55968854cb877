// Data derived from a chunk row, computed once per row object: the store shares hot rows between recalls (its chunk
// cache), so what layers derive from them (term sets, an injection scan) is kept with the row and dropped with it.
import type { ChunkRecord } from "../ports/documents.ts";

export function perChunk<T>(derive: (chunk: ChunkRecord) => T): (chunk: ChunkRecord) => T {
  const derived = new WeakMap<ChunkRecord, T>();
  return (chunk) => {
    if (derived.has(chunk)) return derived.get(chunk)!;
    const value = derive(chunk);
    derived.set(chunk, value);
    return value;
  };
}
