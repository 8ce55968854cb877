// Maximal marginal relevance: picks items that are relevant and unlike those already picked.
import { similarity, type Comparable } from "./similarity.ts";

export interface MmrItem extends Comparable {
  relevance: number;
}

/**
 * Greedy MMR order; `diversity` 0 = relevance only, 1 = novelty only. Yields indices into items lazily, so a
 * consumer that stops after k picks pays O(n x k) similarities, not O(n^2).
 */
export function* mmrOrder(items: readonly MmrItem[], diversity: number): Generator<number> {
  const remaining = new Set(items.map((_, i) => i));
  const maxSim = new Float64Array(items.length);
  while (remaining.size > 0) {
    let best = -1;
    let bestValue = -Infinity;
    for (const i of remaining) {
      const value = (1 - diversity) * items[i]!.relevance - diversity * maxSim[i]!;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    remaining.delete(best);
    yield best;
    if (diversity > 0) for (const i of remaining) maxSim[i] = Math.max(maxSim[i]!, similarity(items[i]!, items[best]!));
  }
}
