// Score fusion and calibration in one step: a logistic model over per-signal scores gives P(relevant) in [0, 1].

/** Weights of the logistic calibration; fitted by `npm run eval -- calibrate` (eval/results/calibration.json). */
export interface FusionWeights {
  lexical: number;
  dense: number;
  bias: number;
}

export interface Signals {
  /** BM25 / the query's maximum attainable BM25, in [0, 1]. */
  lexical: number;
  /** Cosine similarity, or null when there is no dense signal. */
  dense: number | null;
}

export interface Fused {
  score: number;
  contributions: Record<string, number>;
}

export function fuse(signals: Signals, w: FusionWeights): Fused {
  const contributions: Record<string, number> = { lexical: w.lexical * signals.lexical, bias: w.bias };
  if (signals.dense !== null) contributions.dense = w.dense * signals.dense;
  const logit = Object.values(contributions).reduce((a, b) => a + b, 0);
  return { score: sigmoid(logit), contributions };
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
