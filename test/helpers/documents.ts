// Documents prepared the way ingest prepares them (chunks with BM25 terms), for tests that drive a Store directly.
import { chunkDocument, type DocumentKind } from "../../src/domain/text/chunk.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { ChunkInput, DocumentRecord } from "../../src/ports/documents.ts";
import { ANALYSIS_VERSION } from "../../src/services/memory/analyse.ts";

export const T0 = Date.UTC(2024, 0, 1);

export function prepareDocument(
  sourcePath: string,
  content: string,
  opts: { kind?: DocumentKind; authoredAt?: number; analysis?: number } = {},
): { doc: DocumentRecord; chunks: ChunkInput[] } {
  const kind = opts.kind ?? "markdown";
  const chunks = chunkDocument(content, kind).map((c) => ({
    chunkHash: c.hash,
    anchor: c.anchor,
    start: c.start,
    end: c.end,
    text: c.text,
    terms: tokenize(c.text).join(" "),
  }));
  const at = opts.authoredAt ?? T0;
  return {
    doc: {
      sourcePath,
      documentHash: contentHash(content),
      kind,
      authoredAt: at,
      ingestedAt: at,
      content,
      analysis: opts.analysis ?? ANALYSIS_VERSION,
    },
    chunks,
  };
}

/** A many-chunk markdown document whose every chunk names its edition (atomic-replace tests). */
export function editionText(edition: string, sections = 40): string {
  return (
    `# Doc\n\n` +
    Array.from(
      { length: sections },
      (_, i) => `## S${i}\n\nSection ${i} of edition ${edition} by the lighthouse keeper.\n`,
    ).join("\n")
  );
}
