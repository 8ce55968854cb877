// SQuAD v1.1 answer scoring, as the official evaluate-v1.1.py does it: normalize, exact match, token F1, max over golds.

/** Lowercase, drop punctuation, drop the articles a/an/the, collapse whitespace (evaluate-v1.1.py normalize_answer; its \b is Unicode-aware, hence the lookarounds). */
export function normalizeAnswer(s: string): string {
  const lower = s.toLowerCase();
  const noPunct = [...lower].filter((c) => !PUNCTUATION.has(c)).join("");
  return noPunct
    .replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .join(" ");
}

/** Python's string.punctuation, the set the official script removes. */
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

export function exactMatch(prediction: string, gold: string): number {
  return normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0;
}

/** Token F1 on normalized whitespace tokens, with multiset overlap (collections.Counter intersection). */
export function tokenF1(prediction: string, gold: string): number {
  const p = normalizeAnswer(prediction).split(" ").filter(Boolean);
  const g = normalizeAnswer(gold).split(" ").filter(Boolean);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The official metric_max_over_ground_truths. */
export function maxOver(
  metric: (p: string, g: string) => number,
  prediction: string,
  golds: readonly string[],
): number {
  return Math.max(0, ...golds.map((g) => metric(prediction, g)));
}

/** Normalized `needle` occurs in normalized `haystack` on token boundaries (LoCoMo answer containment). */
export function containsNormalized(haystack: string, needle: string): boolean {
  const n = normalizeAnswer(needle);
  return n !== "" && ` ${normalizeAnswer(haystack)} `.includes(` ${n} `);
}
