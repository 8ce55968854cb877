// Markdown documents of 10-50 sections (one ~80-word paragraph each), so each section becomes one chunk.
import { intBetween, mulberry32 } from "../../src/domain/text/prng.ts";
import { TextGenerator } from "./text.ts";

export interface BenchDocument {
  sourcePath: string;
  content: string;
  /** Sections = expected chunks (each section stays under the chunker's 1,200-char target). */
  sections: number;
}

export interface CorpusOptions {
  seed: number;
  /** Generate documents until this many sections exist. */
  chunks: number;
  minSections?: number;
  maxSections?: number;
  wordsPerChunk?: [number, number];
  pathPrefix?: string;
}

export function generateDocuments(vocab: readonly string[], opts: CorpusOptions): BenchDocument[] {
  const rng = mulberry32(opts.seed);
  const text = new TextGenerator(vocab, rng);
  const [minWords, maxWords] = opts.wordsPerChunk ?? [60, 100];
  const docs: BenchDocument[] = [];
  for (let total = 0; total < opts.chunks;) {
    const sections = Math.min(opts.chunks - total, intBetween(rng, opts.minSections ?? 10, opts.maxSections ?? 50));
    const parts = [`# ${text.title(3, 7)}`];
    for (let s = 0; s < sections; s++) {
      const level = s > 0 && rng() < 0.25 ? "###" : "##";
      parts.push(`${level} ${text.title()}`, text.paragraph(intBetween(rng, minWords, maxWords)));
    }
    docs.push({
      sourcePath: `${opts.pathPrefix ?? "notes"}/doc-${String(docs.length).padStart(6, "0")}.md`,
      content: `${parts.join("\n\n")}\n`,
      sections,
    });
    total += sections;
  }
  return docs;
}
