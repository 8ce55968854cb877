// The times a question names ("in May 2023", "on October 13", "in June") and whether a piece of evidence is about them:
// said then, or naming a time that falls then.
import { findTimeExpressions } from "./expressions.ts";

/** An absolute period, or a month (and day) of no stated year ("in June", "on May 3"). */
export type TimeTarget = { from: number; to: number } | { month: number; day?: number };

/** Times the question names; relative ones other than a yearless month or day ("last year") are left out. */
export function questionTimes(question: string): TimeTarget[] {
  const targets: TimeTarget[] = [];
  for (const a of findTimeExpressions(question, { instant: Date.UTC(2001, 0, 1) })) {
    if (!a.relative) targets.push({ from: a.from, to: a.to });
    else if (/\b[A-Za-z]{3,}\b/.test(a.text) && !/\b(?:last|next|this|ago|yesterday|today|tomorrow)\b/i.test(a.text)) {
      const d = new Date(a.from);
      if (a.granularity === "month") targets.push({ month: d.getUTCMonth() + 1 });
      else if (a.granularity === "day" && !/day\b/i.test(a.text))
        targets.push({ month: d.getUTCMonth() + 1, day: d.getUTCDate() });
    }
  }
  return targets;
}

const hits = (t: TimeTarget, from: number, to: number): boolean => {
  if ("from" in t) return from < t.to && t.from < to;
  const d = new Date(from);
  return d.getUTCMonth() + 1 === t.month && (t.day === undefined || d.getUTCDate() === t.day);
};

/** Evidence matches when it was said within a target, or names a time (resolved against when it was said) within one. */
export function aboutTimes(targets: readonly TimeTarget[], text: string, occurredAt: number): boolean {
  if (targets.some((t) => hits(t, occurredAt, occurredAt + 1))) return true;
  const named = findTimeExpressions(text, { instant: occurredAt });
  return named.some((a) => targets.some((t) => hits(t, a.from, a.to)));
}
