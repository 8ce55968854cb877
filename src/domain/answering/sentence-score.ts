// How well each evidence sentence answers the question: the question's words in it, those it states another way, its chunk's retrieval score.
import { tokenize } from "../text/tokenize.ts";
import { plainWords } from "./word-sense.ts";

/** What a sentence's score rests on (each in [0, 1]); the weights are SENTENCE. Shares are idf-weighted over all question terms. */
export interface SentenceFeatures {
  /** Share of the question's terms the sentence holds. */
  overlap: number;
  /** Its chunk's calibrated retrieval score. */
  chunk: number;
  /** It holds a span of the asked type that does not merely repeat the question. */
  typed: number;
  /** It is itself a question (echoes the words, states nothing). */
  asks: number;
  /**
   * When it opens with a pronoun or demonstrative ("He", "These", "During this hold"): share of the question's terms it
   * lacks that the previous sentence of its chunk holds ("He is the oldest quarterback ..." after "Peyton Manning ...").
   */
  prevRef: number;
  /** Share of the question's terms it lacks, and prevRef did not count, that one of its words shares the first six letters with ("divisional" ~ "division", "naturalise" ~ "naturalized"). */
  morph: number;
}

/**
 * Linear weights over SentenceFeatures. overlap/chunk/typed/asks were set by hand (within a chunk the words decide, a
 * typed span breaks near-ties, a question wins only when nothing relevant is stated); prevRef and morph count a term
 * found that way at half a term (0.5 x 0.7), chosen by cross-validation on the tune split (eval/answers/README.md).
 */
export const SENTENCE: Record<keyof SentenceFeatures, number> = {
  overlap: 0.7,
  chunk: 0.3,
  typed: 0.2,
  asks: -0.5,
  prevRef: 0.35,
  morph: 0.35,
};

/** One evidence sentence as the scorer needs it: its chunk (sentences of a chunk are consecutive, in text order), its terms (stemmed). */
export interface SentenceInput {
  chunk: number;
  chunkScore: number;
  text: string;
  terms: ReadonlySet<string>;
  typed: boolean;
}

export interface ScoredInput {
  features: SentenceFeatures;
  score: number;
}

// Opening words that point back to something named before: a pronoun, or a demonstrative among the first three words.
const REFERS = /^(?:(?:\p{L}+\s+){0,2}(?:this|these|those)\s|(?:he|she|it|they|his|her|its|their)\b)/iu;
const MORPH = 6;

/** Features and score of every sentence, in the order given; `weight`: each question term's idf among the sentences (its keys are the question's terms). */
export function scoreSentences(
  question: string,
  sentences: readonly SentenceInput[],
  weight: ReadonlyMap<string, number>,
  weights: Readonly<Record<string, number>> = SENTENCE,
): ScoredInput[] {
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const qWords = new Map<string, string>(); // question term -> the question's word for it, lowercase
  for (const w of plainWords(question)) for (const t of tokenize(w)) qWords.set(t, w);
  const share = (terms: readonly string[]) => (total ? terms.reduce((a, t) => a + (weight.get(t) ?? 0), 0) / total : 0);
  return sentences.map((s, i) => {
    const prev = sentences[i - 1]?.chunk === s.chunk ? sentences[i - 1] : undefined;
    const lacks = [...weight.keys()].filter((t) => !s.terms.has(t));
    const referred = new Set(prev && REFERS.test(s.text) ? lacks.filter((t) => prev.terms.has(t)) : []);
    const prefixes = new Set(
      plainWords(s.text)
        .filter((w) => w.length >= MORPH)
        .map((w) => w.slice(0, MORPH)),
    );
    const features: SentenceFeatures = {
      overlap: share([...weight.keys()].filter((t) => s.terms.has(t))),
      chunk: s.chunkScore,
      typed: s.typed ? 1 : 0,
      asks: s.text.endsWith("?") ? 1 : 0,
      prevRef: share([...referred]),
      morph: share(
        lacks.filter(
          (t) =>
            !referred.has(t) && (qWords.get(t)?.length ?? 0) >= MORPH && prefixes.has(qWords.get(t)!.slice(0, MORPH)),
        ),
      ), // a term counts once
    };
    return {
      features,
      score: (Object.keys(features) as (keyof SentenceFeatures)[]).reduce(
        (z, k) => z + (weights[k] ?? 0) * features[k],
        0,
      ),
    };
  });
}
