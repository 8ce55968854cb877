// A batch of writes as it crosses to the writer thread: each write's rows as a JSON text and every vector in one
// Float32Array.
// Structured cloning the writes themselves (objects, a Map and a small typed array per chunk) cost the loop ~0.13 ms a
// one-chunk document, as much as analysing it; a string and one array clone for a fraction of that.
import type { NewVectors } from "../../ports/documents.ts";
import type { WriteRequest } from "./writer.ts";

export interface WireBatch {
  writes: string[];
  vectors: Float32Array;
}

/** Where a write's vectors sit in the batch's array. */
interface WireVectors {
  embedderId: string;
  hashes: string[];
  dimensions: number;
  offset: number;
}

type WireWrite =
  | Exclude<WriteRequest, { kind: "replace" }>
  | (Omit<Extract<WriteRequest, { kind: "replace" }>, "vectors"> & { vectors?: WireVectors | undefined });

/** The writes that could be encoded, and why each other one could not (by its index in `writes`): it is refused alone. */
export function encodeBatch(writes: readonly WriteRequest[]): { batch: WireBatch; refused: Map<number, Error> } {
  const arrays: Float32Array[] = [];
  const texts: string[] = [];
  const refused = new Map<number, Error>();
  let offset = 0;
  writes.forEach((w, i) => {
    const { wire, vectors } = withoutVectors(w, offset);
    try {
      texts.push(JSON.stringify(wire));
    } catch (err) {
      refused.set(i, err as Error);
      return;
    }
    arrays.push(...vectors);
    offset += vectors.reduce((n, v) => n + v.length, 0);
  });
  const vectors = new Float32Array(offset);
  let at = 0;
  for (const a of arrays) {
    vectors.set(a, at);
    at += a.length;
  }
  return { batch: { writes: texts, vectors }, refused };
}

function withoutVectors(w: WriteRequest, offset: number): { wire: WireWrite; vectors: Float32Array[] } {
  if (w.kind !== "replace") return { wire: w, vectors: [] };
  const { vectors, ...rest } = w;
  if (!vectors) return { wire: rest, vectors: [] };
  const all = [...vectors.byHash.values()];
  const dimensions = all[0]?.length ?? 0;
  const wire = {
    ...rest,
    vectors: { embedderId: vectors.embedderId, hashes: [...vectors.byHash.keys()], dimensions, offset },
  };
  return { wire, vectors: all };
}

export function decodeBatch({ writes, vectors }: WireBatch): WriteRequest[] {
  return writes.map((text) => {
    const w = JSON.parse(text) as WireWrite;
    if (w.kind !== "replace" || !w.vectors) return w as WriteRequest;
    const { embedderId, hashes, dimensions, offset } = w.vectors;
    const byHash: NewVectors["byHash"] = new Map(
      hashes.map((h, i) => [h, vectors.subarray(offset + i * dimensions, offset + (i + 1) * dimensions)]),
    );
    return { ...w, vectors: { embedderId, byHash } };
  });
}
