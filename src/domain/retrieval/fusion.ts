// Score fusion and calibration in two stages. Stage 1, a logistic model over one candidate's signals, gives its base
// logit, which orders the candidates. Stage 2 turns the base logit into P(relevant) in [0, 1] using where the candidate
// stands among the query's candidates (absolute signals alone cannot tell a query's best hit from a strong runner-up).

/** Stage 1 weights: base logit = lexical x signal + dense x signal + bias. */
export interface FusionWeights {
  lexical: number;
  dense: number;
  bias: number;
}

/**
 * Stage 2 weights: logit = base + gap x (base - best) + best x best + rank x ln(rank) + bias, where best is the
 * query's highest base logit and rank the candidate's rank by base logit (ties share the better rank). Monotone in
 * base within a query, so it keeps stage 1's order, when gap > -1 and rank <= 0 (see `keepsOrder`).
 */
export interface QueryCalibration {
  gap: number;
  best: number;
  rank: number;
  bias: number;
}

/** One retrieval mode's weights. */
export interface ModeWeights {
  fusion: FusionWeights;
  calibration: QueryCalibration;
}

export interface Signals {
  /** BM25 / the query's maximum attainable BM25, in [0, 1]. */
  lexical: number;
  /** Cosine similarity, or null when there is no dense signal. */
  dense: number | null;
}

export interface Fused {
  /** The base logit. */
  logit: number;
  contributions: Record<string, number>;
}

export interface Calibrated {
  score: number;
  /** The stage 2 terms; with the stage 1 terms they sum to the logit of `score`. */
  contributions: Record<string, number>;
}

/** Stage 1. */
export function fuse(signals: Signals, w: FusionWeights): Fused {
  const contributions: Record<string, number> = { lexical: w.lexical * signals.lexical, bias: w.bias };
  if (signals.dense !== null) contributions.dense = w.dense * signals.dense;
  return { logit: Object.values(contributions).reduce((a, b) => a + b, 0), contributions };
}

export function keepsOrder(w: QueryCalibration): boolean {
  return w.gap > -1 && w.rank <= 0 && [w.gap, w.best, w.rank, w.bias].every(Number.isFinite);
}

/**
 * Stage 2 over one query's base logits, which must be sorted best first; O(n). The score is computed as
 * a x base + b(rank) with a > 0 and b non-increasing in rank, so it is non-increasing along the input even in
 * floating point; the contributions are the same sum split by term.
 */
export function calibrateQuery(bases: readonly number[], w: QueryCalibration): Calibrated[] {
  const best = bases[0] ?? 0;
  const slope = 1 + w.gap;
  const offset = (w.best - w.gap) * best + w.bias;
  const out: Calibrated[] = [];
  let rank = 0;
  for (let i = 0; i < bases.length; i++) {
    const base = bases[i]!;
    if (i > 0 && base > bases[i - 1]!) throw new Error("calibrateQuery: base logits must be sorted best first");
    if (i === 0 || base < bases[i - 1]!) rank = i + 1;
    const rankTerm = rank > 1 ? w.rank * Math.log(rank) : 0;
    out.push({
      score: sigmoid(slope * base + (offset + rankTerm)),
      contributions: {
        gap: w.gap * (base - best),
        query_best: w.best * best,
        rank: rankTerm,
        calibration_bias: w.bias,
      },
    });
  }
  return out;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
