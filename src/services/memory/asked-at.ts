// When a question is asked, as its relative time words are read: the request's asked_at (with its offset), else now.
import { offsetMinutesOf } from "../../domain/time/calendar.ts";
import type { Reference } from "../../domain/time/expressions.ts";

/** The asking time of a request: `asked_at` at the offset it is written with, or `now` in UTC when it has none. */
export function askedAt(iso: string | undefined, now: Date): Reference {
  return iso === undefined
    ? { instant: now.getTime(), offsetMinutes: 0 }
    : { instant: Date.parse(iso), offsetMinutes: offsetMinutesOf(iso) };
}
