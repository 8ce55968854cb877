// Session context: a turn in a session whose best turn matches the query well is likelier evidence than an equal turn
// in a session where nothing else does (LoCoMo recall@10 +0.023, eval/README.md). Each turn loses `weight` times how
// far its session's best base logit is below the best session's; chunks that are no conversation turn (documents,
// notes) are left as they are.
import type { Candidate } from "./types.ts";

/** `contributions.session` records what a candidate lost. */
export interface SessionConfig {
  /** Logit lost per logit that a turn's session's best candidate is below the query's best session. */
  weight: number;
}

/** Lowers each turn by `weight` x (best session's best base - its session's best base); `sessionOf` null = no turn. */
export function weighSessions<T extends Pick<Candidate, "base" | "contributions">>(
  candidates: readonly T[],
  sessionOf: (c: T) => number | null,
  config: SessionConfig,
): void {
  const best = new Map<number, number>();
  candidates.forEach((c) => {
    const s = sessionOf(c);
    if (s !== null) best.set(s, Math.max(best.get(s) ?? -Infinity, c.base));
  });
  if (best.size < 2) return;
  const top = Math.max(...best.values());
  candidates.forEach((c) => {
    const s = sessionOf(c);
    const gap = s === null ? 0 : top - best.get(s)!;
    if (gap <= 0) return;
    c.contributions.session = -config.weight * gap;
    c.base -= config.weight * gap;
  });
}
