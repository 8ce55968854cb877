// A document's chunks with their search terms: the CPU work of an ingest, run inline or on an ingest worker thread.
import { chunkDocument } from "../../domain/text/chunk.ts";
import { tokenize } from "../../domain/text/tokenize.ts";
import type { DocumentKind } from "../../domain/text/chunk.ts";
import type { ChunkInput } from "../../ports/documents.ts";

/** Markdown chunks under a heading are indexed with the heading's text, so a question naming the section finds them. */
export function* analyseDocument(content: string, kind: DocumentKind): Generator<ChunkInput> {
  for (const c of chunkDocument(content, kind)) {
    const section = kind === "markdown" && !/^L\d+-L\d+$/.test(c.anchor) ? `${c.anchor}\n` : "";
    yield {
      chunkHash: c.hash,
      anchor: c.anchor,
      start: c.start,
      end: c.end,
      text: c.text,
      terms: tokenize(section + c.text).join(" "),
    };
  }
}
