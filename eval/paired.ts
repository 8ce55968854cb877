// Paired comparison of two variants on the same queries: wins/losses and a bootstrap 95% interval of the mean difference.
import { meanInterval } from "./bootstrap.ts";

export interface Paired {
  better: number;
  worse: number;
  tied: number;
  meanDelta: number;
  ci95: [number, number];
}

/** `b - a` per query. */
export function paired(a: readonly number[], b: readonly number[], resamples = 2000): Paired {
  const d = a.map((x, i) => (b[i] ?? 0) - x);
  const n = d.length;
  const mean = d.reduce((s, x) => s + x, 0) / Math.max(1, n);
  return {
    better: d.filter((x) => x > 1e-12).length,
    worse: d.filter((x) => x < -1e-12).length,
    tied: d.filter((x) => Math.abs(x) <= 1e-12).length,
    meanDelta: mean,
    ci95: meanInterval(d, undefined, resamples),
  };
}
