// Word meaning for the answerer, from word vectors the caller injects: how close a span comes to what the question's wh-phrase names.

/** Cosine similarity of two lowercase words, 0 when either is unknown (the GloVe embedder's WordSimilarity). */
export type Similar = (a: string, b: string) => number;

const PLAIN = /[\p{L}\p{N}]+/gu;

/** Lowercase letter/digit runs of `text`: the form word vectors are looked up by ("Denver's" -> denver, s). */
export function plainWords(text: string): string[] {
  return text.toLowerCase().match(PLAIN) ?? [];
}

/**
 * How well `words` fit what the wh-phrase's head words name: the highest similarity of any head word to any of them,
 * clipped at 0 ("what team" ~ "Broncos" 0.5, ~ "age" 0.1). 0 without heads, words or vectors.
 */
export function kinship(heads: readonly string[], words: readonly string[], similar: Similar | undefined): number {
  if (!similar) return 0;
  let best = 0;
  for (const h of heads) for (const w of words) best = Math.max(best, similar(h, w));
  return best;
}
