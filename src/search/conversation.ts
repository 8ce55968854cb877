// The rules hybrid recall applies to conversation turns after stage 1, in order: thread neighbours lifted toward
// their hit, the turns of a speaker the query names lifted, turns in weak sessions lowered. One place, so the
// retriever and the calibration's order check apply the same.
import type { RetrievalConfig } from "./retrieval-config.ts";
import { weighSessions } from "./sessions.ts";
import { liftNamedSpeakers } from "./speakers.ts";
import { liftThreadNeighbours } from "./threads.ts";
import type { Candidate } from "./types.ts";

type Turnish = Pick<Candidate, "id" | "base" | "contributions" | "neighbours" | "speaker" | "session">;

/** Applies the configured rules to the candidates' base logits (`terms`: the query's terms, for the speaker rule). */
export function weighConversation<T extends Turnish>(
  candidates: readonly T[],
  terms: ReadonlySet<string>,
  config: Pick<RetrievalConfig, "threads" | "speakers" | "sessions">,
): void {
  if (!config.threads) return;
  liftThreadNeighbours(candidates, (c) => c.neighbours ?? [], config.threads);
  // After the thread lift: a named speaker's turn does not pull the other speaker's replies up with it.
  if (config.speakers && terms.size > 0)
    liftNamedSpeakers(candidates, (c) => c.speaker ?? null, terms, config.speakers);
  if (config.sessions) weighSessions(candidates, (c) => c.session ?? null, config.sessions);
}
