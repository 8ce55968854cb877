// Ranking metrics over ranked unit ids (best first) and a gold set.

/** Fraction of gold units found in the top k. */
export function recallAt(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) return 0;
  let hit = 0;
  for (const u of ranked.slice(0, k)) if (gold.has(u)) hit++;
  return hit / gold.size;
}

/** 1 if any gold unit is in the top k. */
export function recallAny(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  return ranked.slice(0, k).some((u) => gold.has(u)) ? 1 : 0;
}

/** 1 if every gold unit is in the top k. */
export function recallAll(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  return recallAt(ranked, gold, k) === 1 ? 1 : 0;
}

/** Binary nDCG@k with the usual 1/log2(rank + 1) discount (pytrec_eval / BEIR). */
export function ndcg(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  return (
    dcgOf(
      ranked.slice(0, k).map((u) => (gold.has(u) ? 1 : 0)),
      (i) => 1 / Math.log2(i + 2),
    ) / idealDcg(gold.size, k, (i) => 1 / Math.log2(i + 2))
  );
}

/**
 * nDCG@k exactly as LongMemEval's eval_utils computes it: rank 1 undiscounted, rank i >= 2 divided by log2(i)
 * (so ranks 1 and 2 both weigh 1).
 */
export function ndcgLongMemEval(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  const discount = (i: number) => (i === 0 ? 1 : 1 / Math.log2(i + 1));
  return (
    dcgOf(
      ranked.slice(0, k).map((u) => (gold.has(u) ? 1 : 0)),
      discount,
    ) / idealDcg(gold.size, k, discount)
  );
}

function dcgOf(rels: number[], discount: (i: number) => number): number {
  return rels.reduce((s, r, i) => s + r * discount(i), 0);
}

function idealDcg(relevant: number, k: number, discount: (i: number) => number): number {
  const ideal = dcgOf(
    Array.from({ length: Math.min(relevant, k) }, () => 1),
    discount,
  );
  return ideal > 0 ? ideal : 1;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Units in order of first appearance: a unit's rank is the rank of its best chunk. */
export function uniqueInOrder(units: readonly string[]): string[] {
  return [...new Set(units)];
}
