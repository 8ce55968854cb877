// Similarity between chunks for diversity and near-duplicate detection: cosine when vectors exist, else term Jaccard.

export interface Comparable {
  terms: ReadonlySet<string>;
  vector?: Float32Array | undefined;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

export function similarity(a: Comparable, b: Comparable): number {
  if (a.vector && b.vector) {
    let s = 0;
    for (let i = 0; i < a.vector.length; i++) s += a.vector[i]! * (b.vector[i] ?? 0);
    return Math.max(s, jaccard(a.terms, b.terms));
  }
  return jaccard(a.terms, b.terms);
}

/** Word-level near-duplicates: Jaccard of term sets at or above this are the same evidence twice. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

export function isNearDuplicate(a: Comparable, b: Comparable, threshold = NEAR_DUPLICATE_JACCARD): boolean {
  const [small, large] = a.terms.size <= b.terms.size ? [a.terms, b.terms] : [b.terms, a.terms];
  // Jaccard <= smaller / larger size, so sets of unlike sizes are told apart without intersecting them.
  if (small.size < threshold * large.size) return false;
  if (small.size === 0) return true;
  // inter / (|a| + |b| - inter) >= t  <=>  inter >= t (|a| + |b|) / (1 + t): stop as soon as too many terms are missing,
  // which for unlike chunks is after a few look-ups instead of the whole set (same answer as computing the Jaccard).
  const needed = Math.ceil((threshold * (small.size + large.size)) / (1 + threshold) - 1e-9);
  let missesLeft = small.size - needed;
  for (const t of small) if (!large.has(t) && --missesLeft < 0) return false;
  return true;
}
