// Bootstrap 95% intervals, resampling items or whole clusters (an article's questions are not independent draws).
import { mulberry32 } from "../src/domain/text/prng.ts";

/**
 * 2.5% and 97.5% quantiles of `stat` over `resamples` draws of `items`; with `clusters` (one key per item), whole
 * clusters are drawn. Seeded: the same input gives the same interval.
 */
export function statInterval<T>(
  items: readonly T[],
  stat: (drawn: readonly T[]) => number,
  clusters?: readonly string[],
  resamples = 2000,
): [number, number] {
  const groups = new Map<string, T[]>();
  items.forEach((item, i) => {
    const key = clusters?.[i] ?? String(i);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  });
  const units = [...groups.values()];
  const m = units.length;
  const random = mulberry32(42);
  const stats: number[] = [];
  for (let r = 0; r < resamples && m > 0; r++) {
    const drawn: T[] = [];
    for (let i = 0; i < m; i++) drawn.push(...units[Math.floor(random() * m)]!);
    stats.push(stat(drawn));
  }
  stats.sort((x, y) => x - y);
  const at = (q: number) => stats[Math.min(stats.length - 1, Math.floor(q * stats.length))] ?? 0;
  return [at(0.025), at(0.975)];
}

/** The interval of the mean of `values` (statInterval). */
export function meanInterval(
  values: readonly number[],
  clusters?: readonly string[],
  resamples = 2000,
): [number, number] {
  return statInterval(values, (drawn) => drawn.reduce((s, v) => s + v, 0) / drawn.length, clusters, resamples);
}
