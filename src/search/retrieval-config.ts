// Retrieval parameters: fusion/calibration weights chosen by measurement (eval/results/calibration.json), not habit.
import { keepsOrder, type ModeWeights } from "../domain/retrieval/fusion.ts";
import type { Embedder } from "../ports/embedding.ts";
import type { SoftTermConfig } from "./soft-terms.ts";
import type { SessionConfig } from "./sessions.ts";
import type { SpeakerConfig } from "./speakers.ts";
import type { ThreadConfig } from "./threads.ts";

/** Per mode: `fusion` (stage 1) orders the candidates, `calibration` (stage 2, query-relative) turns that into P(relevant). */
export interface RetrievalConfig {
  /** Mode "lexical", and "hybrid" without an embedder: BM25 only. */
  lexicalOnly: ModeWeights;
  /** Mode "vector": dense cosine only (lexical weight 0). */
  vectorOnly: ModeWeights;
  /** Mode "hybrid": BM25 and dense cosine fused. */
  hybrid: ModeWeights;
  /** Candidates taken from each retriever before fusion. */
  candidates: number;
  /** Hybrid: false = the dense signal only re-scores BM25's candidates (no scan of every vector); absent = true. */
  denseCandidates?: boolean;
  /** Hybrid: the turns beside a hit in its conversation are lifted toward it (src/search/threads.ts); absent = off. */
  threads?: ThreadConfig | undefined;
  /** Hybrid: a turn whose speaker the query names is lifted (src/search/speakers.ts); absent = off. */
  speakers?: SpeakerConfig | undefined;
  /** Hybrid with `threads`: turns in sessions whose best candidate is weak are lowered (src/search/sessions.ts); absent = off. */
  sessions?: SessionConfig | undefined;
  /** Hybrid with word vectors (GloVe): soft term matching joins the candidates (src/search/soft-terms.ts); absent = off. */
  softTerms?: SoftTermConfig | undefined;
  /**
   * Every mode: the lifts a query brings (a time it names, the current value first; services/memory/recall-lifts.ts)
   * move its best candidates; absent = on, false = the retriever's own order (the eval's plain baselines). A lift marked
   * `always` (a replaced statement ranked lower) still acts.
   */
  queryLifts?: boolean | undefined;
}

// Fitted by `npm run eval -- calibrate` (GloVe-SIF; re-run when the embedder or signals change); fits and held-out reliability: eval/results/calibration.json.
// Fitted on answerable queries plus about as many unanswerable ones (questions asked against another conversation's
// vault / another question's haystack), so a query the memory cannot answer gets low scores. Hybrid stage 1 = the
// previous weights x 0.744 (same w_dense/w_lex, same ranking). A refit of stage 2 with the thread lift applied (as
// `calibrate` now harvests) moved it by less than its noise and is not copied here (eval/README.md, "Recall ideas").
export const defaultRetrievalConfig: RetrievalConfig = {
  lexicalOnly: {
    fusion: { lexical: 7.59, dense: 0, bias: -5.726 },
    calibration: { gap: -0.438, best: -0.462, rank: -1.023, bias: 0.365 },
  },
  vectorOnly: {
    fusion: { lexical: 0, dense: 3.443, bias: -7.798 },
    calibration: { gap: -0.9, best: -0.209, rank: -0.91, bias: 1.303 },
  },
  hybrid: {
    fusion: { lexical: 7.724208, dense: 3.062304, bias: -8.258 },
    calibration: { gap: -0.556, best: -0.46, rank: -1.094, bias: 0.376 },
  },
  candidates: 60,
  // Measured (eval/results/dense-leg.json): a dense KNN leg adds 0.003 LoCoMo recall@10 (0.011 @25) and nothing on
  // LongMemEval or SciFact, for ~4 ms of CPU per query at 100k chunks; hybrid re-scores BM25's pool instead.
  denseCandidates: false,
  // Measured (eval/README.md, "Recall ideas"): the turn beside one of the first 5 BM25 hits, lifted to that hit's base
  // logit - 1, adds 0.049 LoCoMo recall@10 on the dev set (51 questions better, 15 worse) and changes nothing on
  // LongMemEval or SciFact; a conversation is one path folder's one-chunk documents authored within 6 hours.
  threads: { windowMs: 6 * 3600_000, step: 1, hits: 5 },
  // Measured (eval/README.md, "Recall ideas"): a turn whose speaker the question names, lifted by 1, adds 0.031 LoCoMo
  // recall@10 on the dev set (50 questions better, 9 worse; multi-hop 0.399 -> 0.477); 0.5 and 1.5 give 0.028 / 0.029.
  // Chosen on the fit conversations alone it would be 1.5 (+0.007 there), held out the same as 1 (0.722 vs 0.721), and
  // it costs adversarial abstention (82.5% -> 80.7%): 1 stays (eval/README.md, "Fourth round").
  speakers: { weight: 1 },
  // Measured (eval/README.md, "Recall ideas"): a turn lowered by 0.4 x its session's gap to the query's best session
  // adds 0.023 LoCoMo recall@10 on the dev set (31 questions better, 13 worse); 0.3 / 0.5 give 0.018 / 0.023.
  sessions: { weight: 0.4 },
};

/**
 * Soft term matching as SMRITI_SOFT_TERMS=1 switches it on (off by default): each query word no chunk has brings its
 * 3 nearest GloVe words the workspace holds (cosine >= 0.6, in at most 5% of chunks), 15 candidates of their own, at
 * half the lexical weight. Measured on the dev sets (eval/README.md, "Recall ideas"): LoCoMo recall@10 +0.003 (4 / 2
 * questions), LongMemEval and SciFact unchanged; matching every query word, not only the missing ones, lost 0.010.
 */
export const softTermsSetting: SoftTermConfig = {
  neighbours: 20,
  floor: 0.6,
  perTerm: 3,
  maxShare: 0.05,
  k: 15,
  weight: 0.5,
  absentOnly: true,
};

/** The embedder that embeds queries now and the weights fitted for it (null embedder: lexical only). */
export interface DenseModel {
  readonly embedder: Embedder | null;
  readonly config: RetrievalConfig;
}

/** Where the retriever takes its dense model for each query (a switch of embedders changes it; see EmbedderHandover). */
export interface DenseSource {
  current(): DenseModel;
}

/** A model that never changes. */
export function fixedDense(embedder: Embedder | null, config: RetrievalConfig): DenseSource {
  const model = { embedder, config };
  return { current: () => model };
}

/** Throws unless every mode's calibration keeps the fused order (the retriever relies on it). */
export function checkRetrievalConfig(config: RetrievalConfig): void {
  for (const mode of ["lexicalOnly", "vectorOnly", "hybrid"] as const)
    if (!keepsOrder(config[mode].calibration))
      throw new Error(`retrieval config ${mode}: the calibration would reorder candidates (needs gap > -1, rank <= 0)`);
}
