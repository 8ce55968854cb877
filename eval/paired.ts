// Paired comparison of two variants on the same queries: wins/losses and a bootstrap 95% interval of the mean difference.
import { mulberry32 } from "../src/domain/prng.ts";

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
  const random = mulberry32(42);
  const means: number[] = [];
  for (let r = 0; r < resamples && n > 0; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[Math.floor(random() * n)]!;
    means.push(s / n);
  }
  means.sort((x, y) => x - y);
  const at = (q: number) => means[Math.min(means.length - 1, Math.floor(q * means.length))] ?? 0;
  return { better: d.filter((x) => x > 1e-12).length, worse: d.filter((x) => x < -1e-12).length, tied: d.filter((x) => Math.abs(x) <= 1e-12).length, meanDelta: mean, ci95: [at(0.025), at(0.975)] };
}
