// Conversation structure: the turn written just before or after a strong hit in the same conversation (the question
// a reply answers, the reply to it) is lifted to that hit's base logit less a fixed step. An answer often shares no
// word with the question but sits beside a turn that does (LoCoMo: 110 of the 499 evidence turns the default missed
// at 10 were next to one of its first five hits).
export interface ThreadConfig {
  /** Two turns of one path folder are one conversation only when authored this close (a session, not the history). */
  windowMs: number;
  /** How far below its neighbour's base logit a chunk is lifted to. */
  step: number;
  /** The first lexical hits whose neighbours are looked up (each adds up to two candidates). */
  hits: number;
}

/** What the lift needs of a candidate; `contributions.thread` records the lift. */
interface Lifted {
  id: number;
  base: number;
  contributions: Record<string, number>;
}

/** Lifts each candidate to max(own, best neighbour's base - step), from the bases before any lift (one hop). */
export function liftThreadNeighbours<T extends Lifted>(
  candidates: readonly T[],
  neighboursOf: (c: T) => readonly number[],
  config: ThreadConfig,
): void {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const lifted = new Map<number, number>();
  for (const c of candidates)
    for (const n of neighboursOf(c)) {
      const to = c.base - config.step;
      const other = byId.get(n);
      if (other && to > other.base && to > (lifted.get(n) ?? -Infinity)) lifted.set(n, to);
    }
  for (const [id, to] of lifted) {
    const c = byId.get(id)!;
    c.contributions.thread = to - c.base;
    c.base = to;
  }
}
