// LoCoMo's temporal gold answers as periods, to compare a resolved answer with: "7 May 2023", "2022", and the relative
// forms the annotators wrote against a session date ("the week before 9 June 2023", "the Friday before 15 July 2023").
import { findTimeExpressions } from "../../src/domain/time/expressions.ts";

export interface Period {
  from: number;
  to: number;
}

/** "the X before D" is "last X" said on D; "N weekends before D" is "N weekends ago"; "the week of D" is "this week". */
const RELATIVE: [RegExp, string][] = [
  [/^the (\w+) before (.+)$/i, "last $1"],
  [/^(\w+ (?:weeks|weekends|days|months|years)) before (.+)$/i, "$1 ago"],
  [/^the week of (.+)$/i, "this week"],
];

/** The first absolute period `text` names; null when it names none (or only relative ones). */
export function absolutePeriod(text: string): Period | null {
  const m = findTimeExpressions(text, { instant: 0 }).find((a) => !a.relative);
  return m ? { from: m.from, to: m.to } : null;
}

/** The gold answer as a period; null when it is not a date the text can pin down ("10 years ago", "since 2016"). */
export function goldPeriod(gold: string): Period | null {
  const text = gold.trim().replace(/\.$/, "");
  for (const [pattern, phrase] of RELATIVE) {
    const m = pattern.exec(text);
    if (!m) continue;
    const said = absolutePeriod(m.at(-1)!);
    const words = text.replace(pattern, phrase);
    const r = said && findTimeExpressions(words, { instant: said.from })[0];
    if (r) return { from: r.from, to: r.to };
  }
  if (/^since\b/i.test(text)) return null;
  return absolutePeriod(/^\d{4}$/.test(text) ? `in ${text}` : text); // a bare year is read after a preposition
}

/** How an answer's period compares with the gold's: the same period, or inside it (a day of the gold week). */
export function compareToGold(answer: Period | null, gold: Period | null): { equal: boolean; within: boolean } {
  if (!answer || !gold) return { equal: false, within: false };
  return {
    equal: answer.from === gold.from && answer.to === gold.to,
    within: answer.from >= gold.from && answer.to <= gold.to,
  };
}
