// Time expressions of cited evidence as the contract shows them: offsets within text_span, periods in UTC.
import type { Citation } from "../../contract/citation.ts";
import type { TimeMention } from "../../contract/time.ts";
import { findTimeExpressions, type TimeAnnotation } from "../../domain/time/expressions.ts";

/** One annotation as a TimeMention; `shift` moves its offsets from the chunk's text into the cited span's. */
export function toMention(a: TimeAnnotation, reference: number, shift = 0): TimeMention {
  return {
    text: a.text,
    start: a.start - shift,
    end: a.end - shift,
    granularity: a.granularity,
    resolved: a.label,
    from: new Date(a.from).toISOString(),
    to: new Date(a.to).toISOString(),
    reference: new Date(reference).toISOString(),
    relative: a.relative,
  };
}

/**
 * The citation with the time expressions of its span resolved against its occurred_at (unchanged without one); for
 * undated evidence (its occurred_at is only the ingest time) the absolute ones only.
 */
export function withTimes(c: Citation, undated = false): Citation {
  if (c.occurred_at === undefined) return c;
  const reference = Date.parse(c.occurred_at);
  const times = findTimeExpressions(c.text_span, { instant: reference })
    .filter((a) => !(undated && a.relative))
    .map((a) => toMention(a, reference));
  return times.length ? { ...c, times } : c;
}
