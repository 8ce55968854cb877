// The times a question names ("in May 2023", "on October 13", "in June", "two weeks ago") and whether a piece of
// evidence is about them: said then, or naming a time that falls then.
import { askedPeriod, partOfAnother, readsFromAskingTime } from "./asked-period.ts";
import { findTimeExpressions, type Reference, type TimeAnnotation } from "./expressions.ts";
import { formatDay, formatDays, localDay } from "./calendar.ts";

/** An absolute period, or a month (and day) of no stated year ("in June", "on May 3"). */
export type TimeTarget = { from: number; to: number } | { month: number; day?: number };

/** The most periods one question is taken to name: a query repeating "yesterday" 400 times asks about one day. */
const MAX_TARGETS = 8;

/**
 * Times the question names: absolute ones as written, words relative to when it is asked ("last week", "two weeks
 * ago") read against `asked` (asked-period.ts), a month or day of no year as that month or day of any year. Distinct,
 * at most MAX_TARGETS.
 */
export function questionTimes(question: string, asked: Reference): TimeTarget[] {
  const targets = new Map<string, TimeTarget>();
  for (const a of findTimeExpressions(question, asked)) {
    const target = targetOf(a, asked, question);
    if (target) targets.set(JSON.stringify(target), target);
    if (targets.size === MAX_TARGETS) break;
  }
  return [...targets.values()];
}

function targetOf(a: TimeAnnotation, asked: Reference, question: string): TimeTarget | null {
  if (!a.relative) return { from: a.from, to: a.to };
  if (readsFromAskingTime(a)) return partOfAnother(a, question) ? null : askedPeriod(a, asked, question);
  if (!/\b[A-Za-z]{3,}\b/.test(a.text)) return null;
  const d = new Date(a.from + (asked.offsetMinutes ?? 0) * 60_000);
  if (a.granularity === "month") return { month: d.getUTCMonth() + 1 };
  if (a.granularity === "day" && !/day\b|night\b|now\b/i.test(a.text))
    return { month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  return null;
}

/** How the question's words relative to its asking time were read, in words: "'two weeks ago': 11-25 January 2023 ...". */
export function askedReadings(question: string, asked: Reference): string[] {
  const offset = asked.offsetMinutes ?? 0;
  const on = formatDay(localDay(asked.instant, offset));
  const readings = findTimeExpressions(question, asked)
    .filter((a) => readsFromAskingTime(a) && !partOfAnother(a, question))
    .map((a) => {
      const p = askedPeriod(a, asked, question);
      const days = formatDays(localDay(p.from, offset), localDay(p.to - 1, offset));
      return `'${a.text}' read as ${days} (asked on ${on}; see asked_at)`;
    });
  return [...new Set(readings)].slice(0, MAX_TARGETS);
}

const hits = (t: TimeTarget, from: number, to: number): boolean => {
  if ("from" in t) return from < t.to && t.from < to;
  const d = new Date(from);
  return d.getUTCMonth() + 1 === t.month && (t.day === undefined || d.getUTCDate() === t.day);
};

/**
 * How much evidence is about the targets: 1 for being said within one, 1 more for naming a time (resolved against when
 * it was said) within one; a session of a busy day is said then, the turn that tells of an event then also names it.
 * Evidence of no known time (`occurredAt` null: only its ingest time is known) counts only the absolute times it names.
 */
export function aboutTimes(
  targets: readonly TimeTarget[],
  text: string,
  occurredAt: number | null,
  named: readonly { from: number; to: number }[] = namedIn(text, occurredAt),
): number {
  const said = occurredAt !== null && targets.some((t) => hits(t, occurredAt, occurredAt + 1)) ? 1 : 0;
  return said + (named.some((a) => targets.some((t) => hits(t, a.from, a.to))) ? 1 : 0);
}

/** The times a text names; relative ones only when it is known when it was said. */
export function namedIn(text: string, occurredAt: number | null): TimeAnnotation[] {
  const found = findTimeExpressions(text, { instant: occurredAt ?? 0 });
  return occurredAt === null ? found.filter((a) => !a.relative) : found;
}
