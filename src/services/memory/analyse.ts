// A document's chunks with their search terms: the CPU work of an ingest, run inline or on an ingest worker thread.
import { chunkDocument } from "../../domain/text/chunk.ts";
import { documentTitle } from "../../domain/text/title.ts";
import { tokenize } from "../../domain/text/tokenize.ts";
import type { DocumentKind } from "../../domain/text/chunk.ts";
import type { ChunkInput } from "../../ports/documents.ts";

/**
 * The version of what analyseDocument makes of a text: raise it when a chunk's terms change for the same content, so an
 * unchanged document stored before is re-analysed on its next ingest (1: titles, a message being no title).
 */
export const ANALYSIS_VERSION = 1;

/**
 * A title weighs twice in every chunk of a text document (a field weight as in BM25F; the chunk holding it adds it
 * once more): a chunk far from the title is about what it names (measured in eval/README.md, "Fourth round").
 */
const TITLE_WEIGHT = 2;

/**
 * Markdown chunks under a heading are indexed with the heading's text, a text document's chunks with its title, so a
 * question naming the section or the paper finds them.
 */
export function* analyseDocument(content: string, kind: DocumentKind): Generator<ChunkInput> {
  const title = kind === "text" ? documentTitle(content) : null;
  // Tokenized once: a title's terms are the same in every chunk.
  const titleTerms = title ? tokenize(title.text).join(" ") : "";
  for (const c of chunkDocument(content, kind)) {
    const section = kind === "markdown" && !/^L\d+-L\d+$/.test(c.anchor) ? `${c.anchor}\n` : "";
    const own = tokenize(section + c.text).join(" ");
    const copies = title && titleTerms ? (c.start < title.end ? TITLE_WEIGHT - 1 : TITLE_WEIGHT) : 0;
    yield {
      chunkHash: c.hash,
      anchor: c.anchor,
      start: c.start,
      end: c.end,
      text: c.text,
      terms: [...Array<string>(copies).fill(titleTerms), ...(own ? [own] : [])].join(" "),
    };
  }
}
