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

export const defaultRetrievalConfig: RetrievalConfig = {
  lexicalOnly: { lexical: 8, dense: 0, bias: -4 },
  hybrid: { lexical: 8, dense: 1, bias: -4.5 },
  candidates: 60,
};
