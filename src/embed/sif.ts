// SIF word weights (Arora, Liang & Ma, ICLR 2017) estimated from corpus-frequency ranks.
//
// SIF weights each word by a / (a + p(w)). The GloVe vocabulary ships no counts, only its order
// by corpus frequency, so p(w) is estimated with a Zipf–Mandelbrot law: p(rank r) ∝ 1 / (r + k)
// for 1-based r, normalised over the whole original vocabulary (including entries we never look
// up, e.g. punctuation, so the ranks keep their meaning).
//
// Constants:
//  - a = 1e-3: the paper reports good results for a in [1e-4, 1e-3]. With the estimate below only
//    the ~80 most frequent entries get weight < 0.5 ("the" ≈ 0.02), rank 1,000 gets ≈ 0.93 and
//    rank 10,000 ≈ 0.99, so function words are suppressed while content words keep weight ~1.
//  - k = 1: with ~341k ranks this gives p("the") ≈ 4%, in line with its observed share of tokens
//    in the Wikipedia + Gigaword corpus GloVe 6B was trained on (punctuation counted as tokens).

export const SIF_A = 1e-3;
export const ZIPF_OFFSET = 1;

/** Estimated unigram probability normaliser Z = sum_{r=1..vocabSize} 1 / (r + k). */
export function zipfNormalizer(vocabSize: number, k: number = ZIPF_OFFSET): number {
  let z = 0;
  for (let r = vocabSize; r >= 1; r--) z += 1 / (r + k); // smallest terms first for accuracy
  return z;
}

/**
 * SIF weight per vocabulary entry. `ranks` are 0-based positions in the frequency-ordered
 * vocabulary of `vocabSize` words.
 */
export function sifWeights(
  ranks: Uint32Array,
  vocabSize: number,
  a: number = SIF_A,
  k: number = ZIPF_OFFSET,
): Float32Array {
  const z = zipfNormalizer(vocabSize, k);
  const out = new Float32Array(ranks.length);
  for (let i = 0; i < ranks.length; i++) {
    const p = 1 / ((ranks[i]! + 1 + k) * z);
    out[i] = a / (a + p);
  }
  return out;
}
