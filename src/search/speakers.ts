// Who said it: a question that names a speaker of a conversation ("What books has John read?") is answered by that
// speaker's own turns far more often than by the turns that mention the name (LoCoMo: 931 of the 968 evidence turns of
// the questions naming one speaker are that speaker's), yet BM25 weighs the name like any word used in half the turns.
import type { Candidate } from "./types.ts";

/** `contributions.speaker` records the lift. */
export interface SpeakerConfig {
  /** Logit added to a turn whose speaker the query names. */
  weight: number;
}

/** Adds `weight` to the base logit of each candidate whose speaker (a query term, or null) is among `terms`. */
export function liftNamedSpeakers<T extends Pick<Candidate, "base" | "contributions">>(
  candidates: readonly T[],
  speakerOf: (c: T) => string | null,
  terms: ReadonlySet<string>,
  config: SpeakerConfig,
): void {
  candidates.forEach((c) => {
    const speaker = speakerOf(c);
    if (speaker === null || !terms.has(speaker)) return;
    c.contributions.speaker = config.weight;
    c.base += config.weight;
  });
}
