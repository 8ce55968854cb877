// The period a question's relative time words point at, read against when the question is asked and widened by how
// vague the words are (issue 45): "two weeks ago" is a rounded count, "last month" names a month.
import { localDay, startOf } from "./calendar.ts";
import type { Reference, TimeAnnotation } from "./expressions.ts";

const DAY = 86_400_000;
/** Words that place a period relative to when they are said; "now" and a bare "night" or weekday name no period to look in. */
const RELATIVE = /\b(?:last|past|next|this|ago|yesterday|today|tonight|tomorrow)\b/i;
/** A span that runs up to the asking time: "the past month", "the last two weeks", "last few days". */
const SPAN = /^(?:past\s|last\s.*\b(?:days|weeks|weekends|months|years)$)/i;
/** "last month" after "the" ("in the last month", "over the last week") is a span back too, unless "of" follows ("the last week of May"). */
const spanInContext = (a: TimeAnnotation, text: string): boolean =>
  /^last\s/i.test(a.text) && /\bthe\s+$/i.test(text.slice(0, a.start)) && !/^\s+of\b/i.test(text.slice(a.end));
const COUNTED = /\bago$/i;

/** True when the words are relative to when they are said, so they need an asking time ("last week", "two days ago"). */
export const readsFromAskingTime = (a: TimeAnnotation): boolean => a.relative && RELATIVE.test(a.text);

/**
 * [from, to) in epoch ms that the words point at when asked at `asked`. A count back ("two weeks ago") is rounded by
 * whoever says it, the more the farther back: half its distance either side (at least a day), so "two weeks ago" asked
 * on 1 February is 11-25 January. A span back ("the past month", "in the last month") runs from its start to the
 * asking time (`text`, the question the words are in, tells "in the last month" from "last month"). A named
 * period ("yesterday", "last Saturday", "last month") is that period and a day either side, as a day's edges blur
 * (a late night, another time zone).
 */
export function askedPeriod(a: TimeAnnotation, asked: Reference, text = ""): { from: number; to: number } {
  const offset = asked.offsetMinutes ?? 0;
  const askedDay = localDay(asked.instant, offset);
  const dayStart = startOf(askedDay, offset);
  if (SPAN.test(a.text) || spanInContext(a, text)) return { from: a.from - DAY, to: dayStart + DAY };
  if (!COUNTED.test(a.text)) return { from: a.from - DAY, to: a.to + DAY };
  // How far back the count reaches: whole days, or whole months or years from the asking day's own month or year.
  const own =
    a.granularity === "year"
      ? startOf({ year: askedDay.year, month: 1, day: 1 }, offset)
      : a.granularity === "month"
        ? startOf({ year: askedDay.year, month: askedDay.month, day: 1 }, offset)
        : dayStart;
  const distance = own - a.from;
  const point = dayStart - distance;
  const slack = Math.max(1, Math.round(distance / DAY / 2)) * DAY;
  return { from: point - slack, to: point + DAY + slack };
}
