// Score adjustments the evidence-side layers share: nudges in logit space (scores stay in (0, 1)) and a stable re-rank.
import type { Evidence, EvidenceState } from "./types.ts";

const EPS = 1e-9;

/** A score with `delta` added to its logit (kept inside (0, 1)). */
export function nudgeScore(score: number, delta: number): number {
  const p = Math.min(1 - EPS, Math.max(EPS, score));
  return 1 / (1 + Math.exp(-(Math.log(p / (1 - p)) + delta)));
}

/** The item with `delta` added to the logit of its score and, when given, one more flag. */
export function nudge(item: Evidence, delta: number, flag?: string): Evidence {
  return { ...item, score: nudgeScore(item.score, delta), flags: flag ? [...item.flags, flag] : item.flags };
}

/** Best score first; ties keep their current order (Array.prototype.sort is stable). */
export function byScore(items: readonly Evidence[]): Evidence[] {
  return [...items].sort((a, b) => b.score - a.score);
}

/** The most items a layer examines: a bound on per-request cost (pairwise duplicate checks are quadratic). */
export const HEAD_CAP = 50;

/** The head a layer should look at: the items the operation uses plus as many again (what a demotion can bring up), at most HEAD_CAP. */
export function headSize(e: EvidenceState): number {
  return Math.min(e.items.length, headBound(e.need));
}

/** The head's size when there are items enough. */
export const headBound = (need: number) => Math.min(need * 2, HEAD_CAP);

/** Applies per-index deltas to the head and re-ranks; returns the state unchanged when nothing moved. */
export function adjustHead(
  e: EvidenceState,
  deltaOf: (item: Evidence, i: number) => { delta: number; flag?: string } | null,
): EvidenceState {
  const head = headSize(e);
  let changed = false;
  const items = e.items.map((item, i) => {
    if (i >= head) return item;
    const d = deltaOf(item, i);
    if (!d || d.delta === 0) return item;
    changed = true;
    return nudge(item, d.delta, d.flag);
  });
  return changed ? { ...e, items: byScore(items) } : e;
}
