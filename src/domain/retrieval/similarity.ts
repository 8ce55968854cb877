// Similarity between chunks for diversity and near-duplicate detection: cosine when vectors exist, else term Jaccard.
// Terms are distinct term ids in ascending order (the BM25 index's numbering), so comparing two chunks is one merge
// walk: no set to build per chunk, nothing allocated.

export interface Comparable {
  /** Distinct term ids, ascending; ids of one numbering (one index) only. */
  terms: Int32Array;
  vector?: Float32Array | undefined;
}

/** Term lists numbered with one dictionary (each distinct and ascending): for texts no index has numbered. */
export function numberTerms(lists: readonly (readonly string[])[]): Int32Array[] {
  const ids = new Map<string, number>();
  const idOf = (t: string) => ids.get(t) ?? (ids.set(t, ids.size), ids.size - 1);
  return lists.map((terms) => Int32Array.from(new Set(terms.map(idOf))).sort());
}

/** Terms a and b share (both ascending and distinct). */
function shared(a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! === b[j]!) {
      n++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return n;
}

export function jaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  const inter = shared(a, b);
  return inter / (a.length + b.length - inter);
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
  const [small, large] = a.terms.length <= b.terms.length ? [a.terms, b.terms] : [b.terms, a.terms];
  // Jaccard <= smaller / larger size, so sets of unlike sizes are told apart without intersecting them.
  if (small.length < threshold * large.length) return false;
  if (small.length === 0) return true;
  // inter / (|a| + |b| - inter) >= t  <=>  inter >= t (|a| + |b|) / (1 + t): stop as soon as too many of the smaller's
  // terms are missing, which for unlike chunks is a few steps in (same answer as computing the Jaccard).
  const needed = Math.ceil((threshold * (small.length + large.length)) / (1 + threshold) - 1e-9);
  let missesLeft = small.length - needed;
  for (let i = 0, j = 0; i < small.length;) {
    if (j < large.length && small[i]! > large[j]!) j++;
    else if (j < large.length && small[i]! === large[j]!) {
      i++;
      j++;
    } else if (--missesLeft < 0) return false;
    else i++;
  }
  return true;
}
