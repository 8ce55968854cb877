// A batch of writes as it crosses to the writer thread: the rows as one JSON text and every vector in one Float32Array.
// Structured cloning the writes themselves (objects, a Map and a small typed array per chunk) cost the loop ~0.13 ms a
// one-chunk document, as much as analysing it; a string and one array clone for a fraction of that.
import type { NewVectors } from "../../ports/documents.ts";
import type { WriteRequest } from "./writer.ts";

export interface WireBatch {
  json: string;
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

export function encodeBatch(writes: readonly WriteRequest[]): WireBatch {
  const arrays: Float32Array[] = [];
  let offset = 0;
  const wire = writes.map((w): WireWrite => {
    if (w.kind !== "replace") return w;
    const { vectors, ...rest } = w;
    if (!vectors) return rest;
    const all = [...vectors.byHash.values()];
    const dimensions = all[0]?.length ?? 0;
    const at = offset;
    arrays.push(...all);
    offset += all.length * dimensions;
    return {
      ...rest,
      vectors: { embedderId: vectors.embedderId, hashes: [...vectors.byHash.keys()], dimensions, offset: at },
    };
  });
  const vectors = new Float32Array(offset);
  let at = 0;
  for (const a of arrays) {
    vectors.set(a, at);
    at += a.length;
  }
  return { json: JSON.stringify(wire), vectors };
}

export function decodeBatch({ json, vectors }: WireBatch): WriteRequest[] {
  return (JSON.parse(json) as WireWrite[]).map((w) => {
    if (w.kind !== "replace" || !w.vectors) return w as WriteRequest;
    const { embedderId, hashes, dimensions, offset } = w.vectors;
    const byHash: NewVectors["byHash"] = new Map(
      hashes.map((h, i) => [h, vectors.subarray(offset + i * dimensions, offset + (i + 1) * dimensions)]),
    );
    return { ...w, vectors: { embedderId, byHash } };
  });
}
