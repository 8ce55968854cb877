// Builds Citation objects from stored chunks: the one place their fields are filled.
import type { Citation } from "../../contract/citation.ts";
import { contentHash } from "../../domain/text/hash.ts";
import type { ChunkRecord } from "../../ports/documents.ts";

/** `span` narrows text_span to a sub-range of the chunk text (still a literal substring of the source). */
export function citationOf(
  chunk: Pick<ChunkRecord, "chunkHash" | "sourcePath" | "anchor" | "text"> & { authoredAt?: number },
  score: number,
  retrievedAt: Date,
  span?: { start: number; end: number },
): Citation {
  return {
    chunk_hash: chunk.chunkHash,
    source_path: chunk.sourcePath,
    anchor: chunk.anchor,
    text_span: span ? chunk.text.slice(span.start, span.end) : chunk.text,
    score: Math.min(1, Math.max(0, Number(score.toFixed(6)))),
    retrieved_at: retrievedAt.toISOString(),
    ...(chunk.authoredAt === undefined ? {} : { occurred_at: new Date(chunk.authoredAt).toISOString() }),
  };
}

/** A citation of a literal span that is not (or not only) a stored chunk: chunk_hash is the span's own content hash. */
export function spanCitation(
  sourcePath: string,
  anchor: string,
  span: string,
  score: number,
  retrievedAt: Date,
): Citation {
  return {
    chunk_hash: contentHash(span),
    source_path: sourcePath,
    anchor,
    text_span: span,
    score: Math.min(1, Math.max(0, Number(score.toFixed(6)))),
    retrieved_at: retrievedAt.toISOString(),
  };
}
