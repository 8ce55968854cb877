// Calibration quality: reliability table (predicted vs observed by score bin), Brier score, expected calibration error.

export interface ReliabilityBin {
  from: number;
  to: number;
  n: number;
  meanPredicted: number;
  observedRate: number;
}

export interface Calibration {
  n: number;
  positives: number;
  brier: number;
  /** Brier of always predicting the base rate: the score to beat. */
  brierBaseRate: number;
  /** Sum over bins of (n_bin / n) x |observed - predicted|. */
  ece: number;
  bins: ReliabilityBin[];
}

const EDGES = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

export function calibration(probs: readonly number[], ys: readonly number[]): Calibration {
  const n = probs.length;
  const positives = ys.reduce((a, b) => a + b, 0);
  const base = positives / Math.max(1, n);
  let brier = 0;
  let brierBase = 0;
  const bins = EDGES.slice(0, -1).map((from, i) => ({ from, to: EDGES[i + 1]!, n: 0, sumP: 0, sumY: 0 }));
  for (let i = 0; i < n; i++) {
    const p = probs[i]!;
    const y = ys[i]!;
    brier += (p - y) ** 2;
    brierBase += (base - y) ** 2;
    const bin = bins.find((b) => p < b.to) ?? bins[bins.length - 1]!;
    bin.n++;
    bin.sumP += p;
    bin.sumY += y;
  }
  const out = bins
    .filter((b) => b.n > 0)
    .map((b) => ({ from: b.from, to: b.to, n: b.n, meanPredicted: b.sumP / b.n, observedRate: b.sumY / b.n }));
  return {
    n,
    positives,
    brier: brier / Math.max(1, n),
    brierBaseRate: brierBase / Math.max(1, n),
    ece: out.reduce((s, b) => s + (b.n / Math.max(1, n)) * Math.abs(b.observedRate - b.meanPredicted), 0),
    bins: out,
  };
}
