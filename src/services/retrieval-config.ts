// Retrieval parameters: fusion/calibration weights chosen by measurement (eval/results/calibration.json), not habit.
import type { FusionWeights } from "../domain/fusion.ts";

export interface RetrievalConfig {
  /** Logistic calibration when only BM25 is available. */
  lexicalOnly: FusionWeights;
  /** Logistic fusion + calibration of BM25 and dense cosine. */
  hybrid: FusionWeights;
  /** Candidates taken from each retriever before fusion. */
  candidates: number;
}

/**
 * Fitted by `npm run eval -- calibrate` with the offline GloVe-SIF embedder (logistic fit on LoCoMo + SciFact-train
 * candidate pools; the hybrid w_dense/w_lex ratio ~0.4 chosen by the best mean of LoCoMo recall@10, LongMemEval
 * recall_all@5 and SciFact nDCG@10, then scale and bias refitted). Re-run it when the embedder or the signals change.
 */
export const defaultRetrievalConfig: RetrievalConfig = {
  lexicalOnly: { lexical: 9.924, dense: 0, bias: -5.757 },
  hybrid: { lexical: 10.382, dense: 4.116, bias: -9.396 },
  candidates: 60,
};
