// Bootstrap 95% interval of a mean, resampling items or whole clusters (an article's questions are not independent draws).
import { mulberry32 } from "../src/domain/text/prng.ts";

/** 2.5% and 97.5% quantiles of the mean over `resamples` draws; with `clusters`, whole clusters are drawn (seeded: same input, same interval). */
export function meanInterval(values: readonly number[], clusters?: readonly string[], resamples = 2000): [number, number] {
  const groups = new Map<string, { sum: number; n: number }>();
  values.forEach((v, i) => {
    const key = clusters?.[i] ?? String(i);
    const g = groups.get(key) ?? { sum: 0, n: 0 };
    g.sum += v;
    g.n++;
    groups.set(key, g);
  });
  const units = [...groups.values()];
  const m = units.length;
  const random = mulberry32(42);
  const means: number[] = [];
  for (let r = 0; r < resamples && m > 0; r++) {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < m; i++) {
      const u = units[Math.floor(random() * m)]!;
      sum += u.sum;
      n += u.n;
    }
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const at = (q: number) => means[Math.min(means.length - 1, Math.floor(q * means.length))] ?? 0;
  return [at(0.025), at(0.975)];
}
