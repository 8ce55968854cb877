// The times a question names ("in May 2023", "on October 13", "in June", "two weeks ago") and whether a piece of
// evidence is about them: said then, or naming a time that falls then.
import { askedPeriod, readsFromAskingTime } from "./asked-period.ts";
import { findTimeExpressions, type Reference } from "./expressions.ts";
import { formatDay, formatDays, localDay } from "./calendar.ts";

/** An absolute period, or a month (and day) of no stated year ("in June", "on May 3"). */
export type TimeTarget = { from: number; to: number } | { month: number; day?: number };

/**
 * Times the question names: absolute ones as written, words relative to when it is asked ("last week", "two weeks
 * ago") read against `asked` (asked-period.ts), a month or day of no year as that month or day of any year.
 */
export function questionTimes(question: string, asked: Reference): TimeTarget[] {
  const targets: TimeTarget[] = [];
  for (const a of findTimeExpressions(question, asked)) {
    if (!a.relative) targets.push({ from: a.from, to: a.to });
    else if (readsFromAskingTime(a)) targets.push(askedPeriod(a, asked, question));
    else if (/\b[A-Za-z]{3,}\b/.test(a.text)) {
      const d = new Date(a.from + (asked.offsetMinutes ?? 0) * 60_000);
      if (a.granularity === "month") targets.push({ month: d.getUTCMonth() + 1 });
      else if (a.granularity === "day" && !/day\b|night\b|now\b/i.test(a.text))
        targets.push({ month: d.getUTCMonth() + 1, day: d.getUTCDate() });
    }
  }
  return targets;
}

/** How the question's words relative to its asking time were read, in words: "'two weeks ago': 11-25 January 2023 ...". */
export function askedReadings(question: string, asked: Reference): string[] {
  const offset = asked.offsetMinutes ?? 0;
  const on = formatDay(localDay(asked.instant, offset));
  return findTimeExpressions(question, asked)
    .filter(readsFromAskingTime)
    .map((a) => {
      const p = askedPeriod(a, asked, question);
      const days = formatDays(localDay(p.from, offset), localDay(p.to - 1, offset));
      return `'${a.text}' read as ${days} (asked on ${on}; see asked_at)`;
    });
}

const hits = (t: TimeTarget, from: number, to: number): boolean => {
  if ("from" in t) return from < t.to && t.from < to;
  const d = new Date(from);
  return d.getUTCMonth() + 1 === t.month && (t.day === undefined || d.getUTCDate() === t.day);
};

/**
 * How much evidence is about the targets: 1 for being said within one, 1 more for naming a time (resolved against when
 * it was said) within one; a session of a busy day is said then, the turn that tells of an event then also names it.
 */
export function aboutTimes(
  targets: readonly TimeTarget[],
  text: string,
  occurredAt: number,
  named: readonly { from: number; to: number }[] = findTimeExpressions(text, { instant: occurredAt }),
): number {
  const said = targets.some((t) => hits(t, occurredAt, occurredAt + 1)) ? 1 : 0;
  return said + (named.some((a) => targets.some((t) => hits(t, a.from, a.to))) ? 1 : 0);
}
