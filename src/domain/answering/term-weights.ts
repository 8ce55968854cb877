// Question-term weights shared by the sentence score and the event-owner check.

/** idf of each question term over the evidence sentences, so a term every sentence shares counts little and an absent one a lot. */
export function termWeights(qTerms: Iterable<string>, sentences: readonly ReadonlySet<string>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of qTerms)
    out.set(t, Math.log(1 + (sentences.length + 1) / (sentences.filter((s) => s.has(t)).length + 0.5)));
  return out;
}
