// Retrieval parameters: fusion/calibration weights chosen by measurement (eval/results/calibration.json), not habit.
import type { ModeWeights } from "../domain/fusion.ts";

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
}

// Fitted by `npm run eval -- calibrate` (GloVe-SIF; re-run when the embedder or signals change); fits and held-out reliability: eval/results/calibration.json.
export const defaultRetrievalConfig: RetrievalConfig = {
  lexicalOnly: { fusion: { lexical: 9.924, dense: 0, bias: -5.757 }, calibration: { gap: -0.322, best: -0.575, rank: -1.024, bias: 0.65 } },
  vectorOnly: { fusion: { lexical: 0, dense: 4.416, bias: -7.912 }, calibration: { gap: -0.9, best: -0.551, rank: -0.953, bias: 0.167 } },
  hybrid: { fusion: { lexical: 10.382, dense: 4.116, bias: -9.396 }, calibration: { gap: -0.46, best: -0.618, rank: -1.047, bias: 0.548 } },
  candidates: 60,
  // Measured (eval/results/dense-leg.json): a dense KNN leg adds 0.003 LoCoMo recall@10 (0.011 @25) and nothing on
  // LongMemEval or SciFact, for ~4 ms of CPU per query at 100k chunks; hybrid re-scores BM25's pool instead.
  denseCandidates: false,
};
