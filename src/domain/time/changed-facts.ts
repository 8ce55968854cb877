// Statements that replace earlier ones (issue 45 item 4), found without a model: the same speaker says a sentence about
// the same things (shared content words) with a different value (a count, a score, a time, a frequency) later on.
import { splitSentences, type Span } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";

export interface Statement {
  id: number;
  text: string;
  /** Event time: the later of two statements replaces the earlier. */
  at: number;
}

export interface Replacement {
  oldId: number;
  newId: number;
  /** The two sentences that matched, as offsets into each statement's text. */
  oldSpan: Span;
  newSpan: Span;
}

/** Content words two sentences must share besides a number's unit (a count of "tops"), and without one (a score). */
export const MIN_SHARED_WITH_UNIT = 2;
export const MIN_SHARED = 3;

const NUMBER_WORDS =
  "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen".split(
    " ",
  );
/** Each kind of value, most specific first (a score's digits are not also counted as numbers). */
const VALUE_PATTERNS: [kind: string, re: RegExp][] = [
  ["score", /\b\d{1,3}-\d{1,3}\b/g],
  [
    "frequency",
    /\b(?:daily|weekly|monthly|yearly|every (?:other |single )?(?:day|week|month|year|morning|evening|night|weekend)|(?:once|twice|\w+ times) (?:a|per) (?:day|week|month|year))\b/gi,
  ],
  // Not a part of a name or model ("P-125", "ES110", "10,000mAh").
  ["number", new RegExp(`(?<![\\w$,.-])(?:\\d+(?:\\.\\d+)?|${NUMBER_WORDS.join("|")})(?![\\w,-]|\\.\\d)`, "gi")],
];
/** The same frequency said two ways. */
const SAME_FREQUENCY: Record<string, string> = {
  daily: "every day",
  weekly: "every week",
  monthly: "every month",
  yearly: "every year",
  "once a day": "every day",
  "once a week": "every week",
};
/** Durations count time gone by ("for 3 months now"), which changes by itself: they need more shared words. */
const DURATION = new Set(tokenize("seconds minutes hours days weeks months years"));
/** Dates, years, clock times, amounts of money and bracketed asides (a shared photo's caption) are not values that change. */
const NOT_A_VALUE =
  /\b\d{1,4}[/.]\d{1,2}(?:[/.]\d{2,4})?\b|\b(?:19|20)\d{2}\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\$\d[\d,]*(?:\.\d+)?|\[[^\]]*\]/gi;
/** Words too common in chat to say two sentences are about the same thing. */
const WEAK = new Set(
  tokenize(
    "way think thinking know want like really get got also well good great much many lot thing things time make going go " +
      "just still even new recently actually pretty sure help recommend recommendations tips idea ideas day week month year " +
      "already currently around far start started try trying take taking took plan planning excited feel feeling noticed " +
      "mention remember last next ago since past every",
  ),
);
const SPEAKER = /^([A-Z][\w.' -]{0,40}):\s/;

/** One value a sentence states: its kind, the word it counts (a number's unit), and the sentence's other content words. */
export interface Claim extends Span {
  speaker: string | null;
  kind: string;
  value: string;
  unit: string | null;
  key: Set<string>;
}

/** Pairs where a later statement replaces an earlier one: each by the first that replaced it, so changes form a chain. */
export function detectReplacements(statements: readonly Statement[]): Replacement[] {
  const claims = statements.map((s) => ({ s, claims: claimsOf(s.text) })).filter((x) => x.claims.length > 0);
  const next = new Map<number, Replacement & { at: number }>();
  for (const older of claims)
    for (const newer of claims) {
      if (newer.s.at <= older.s.at || newer.s.id === older.s.id) continue;
      const known = next.get(older.s.id);
      if (known && known.at <= newer.s.at) continue;
      const pair = firstPair(older.claims, newer.claims);
      if (pair) next.set(older.s.id, { oldId: older.s.id, newId: newer.s.id, ...pair, at: newer.s.at });
    }
  return [...next.values()].map(({ at: _at, ...r }) => r);
}

function firstPair(older: Claim[], newer: Claim[]): { oldSpan: Span; newSpan: Span } | undefined {
  for (const a of older)
    for (const b of newer)
      if (replaces(a, b, newer))
        return { oldSpan: { start: a.start, end: a.end }, newSpan: { start: b.start, end: b.end } };
  return undefined;
}

/** Same speaker (when the text names one), kind and unit, another value, and enough shared content words. */
function replaces(a: Claim, b: Claim, newer: readonly Claim[]): boolean {
  if (a.speaker !== b.speaker || a.kind !== b.kind || a.unit !== b.unit || a.value === b.value) return false;
  if (a.kind === "number" && a.unit === null) return false;
  // The newer sentence restating the old value ("6:45 on weekdays, 8:30 last Saturday") is not a replacement of it.
  if (newer.some((c) => c.start === b.start && c.kind === a.kind && c.unit === a.unit && c.value === a.value))
    return false;
  let shared = 0;
  for (const w of a.key) if (b.key.has(w)) shared++;
  return shared >= (a.unit === null || DURATION.has(a.unit) ? MIN_SHARED : MIN_SHARED_WITH_UNIT);
}

/** Each value a sentence states, with its speaker, unit and content words. */
export function claimsOf(text: string): Claim[] {
  const out: Claim[] = [];
  let speaker: string | null = null;
  let lineStart = -1;
  for (const { start, end } of splitSentences(text)) {
    const lineBegin = text.lastIndexOf("\n", start) + 1;
    if (lineBegin !== lineStart) {
      lineStart = lineBegin;
      speaker = SPEAKER.exec(text.slice(lineBegin, end))?.[1] ?? speaker;
    }
    let rest = text.slice(start, end).replace(NOT_A_VALUE, " ");
    const found: { kind: string; value: string; unit: string | null }[] = [];
    for (const [kind, re] of VALUE_PATTERNS) {
      for (const m of rest.matchAll(re)) {
        const unit =
          kind === "number"
            ? (tokenize(rest.slice(m.index + m[0].length, m.index + m[0].length + 30))[0] ?? null)
            : null;
        const value = m[0].toLowerCase();
        found.push({ kind, value: SAME_FREQUENCY[value] ?? value, unit: unit && !/^\d/.test(unit) ? unit : null });
      }
      rest = rest.replace(re, " ");
    }
    if (found.length === 0) continue;
    const words = contentWords(rest);
    for (const f of found) out.push({ start, end, speaker, ...f, key: new Set(words.filter((w) => w !== f.unit)) });
  }
  return out;
}

/** The terms of a text that can say what it is about (not chat's filler words, not numbers). */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((w) => !WEAK.has(w) && !/^\d/.test(w));
}
