// Soft term matching: each query word's nearest words by meaning (GloVe), as BM25 terms, so a chunk that says
// "painting" is found for "artwork" even when BM25 alone never sees it (Bm25Index.softScorer keeps the ones the
// workspace has).
import { tokenize } from "../domain/text/tokenize.ts";
import type { WordNeighbours } from "../ports/embedding.ts";
import type { SoftGroup } from "./bm25.ts";

export interface SoftTermConfig {
  /** Nearest words asked of the word vectors per query word (the index keeps the ones it holds). */
  neighbours: number;
  /** Cosine below which a word is not a match. */
  floor: number;
  /** Near words kept per query word among those the index holds, most similar first. */
  perTerm: number;
  /** Near words in more than this share of chunks are skipped (they say little and cost a long posting scan). */
  maxShare: number;
  /** Soft-match candidates that join the pool. */
  k: number;
  /** Its weight in the base logit, relative to the lexical weight (on the query's BM25 scale). */
  weight: number;
  /** Only query words no chunk of the workspace has (the vocabulary gap proper); false: every query word. */
  absentOnly?: boolean | undefined;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * One group per distinct content word of the query: its own BM25 term and its near words above the floor. With
 * `absentOnly`, only words the index does not hold (`holds`) are looked up: the others cost no neighbour search.
 */
export function softGroups(
  query: string,
  lexicon: WordNeighbours,
  config: SoftTermConfig,
  holds: (term: string) => boolean,
): SoftGroup[] {
  const groups: SoftGroup[] = [];
  const seen = new Set<string>();
  for (const [word] of query.toLowerCase().matchAll(WORD)) {
    const [exact] = tokenize(word);
    if (!exact || seen.has(exact)) continue;
    seen.add(exact);
    if (config.absentOnly && holds(exact)) continue;
    const terms: string[] = [];
    const similarities: number[] = [];
    for (const n of lexicon.neighbours(word, config.neighbours)) {
      const [term] = tokenize(n.word);
      if (n.similarity < config.floor || !term || term === exact || terms.includes(term)) continue;
      terms.push(term);
      similarities.push(n.similarity);
    }
    if (terms.length > 0) groups.push({ exact, terms, similarities });
  }
  return groups;
}
