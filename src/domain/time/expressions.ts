// Time expressions in text, resolved against a reference time (issue 45 item 2): chrono-node finds and reads dates;
// weeks, weekends and bare years, which it reads as single days or misses, are read here as the periods they name.
import type * as Chrono from "chrono-node";
import { chrono } from "./chrono.ts";
import {
  dayOf,
  epochDay,
  formatDay,
  formatMonth,
  isoWeekday,
  localDay,
  monthStart,
  nextMonthStart,
  startOf,
} from "./calendar.ts";

export type Granularity = "day" | "week" | "weekend" | "month" | "year";

/** One expression: its span in the text, what it resolves to ([from, to) in epoch ms) and how to say that. */
export interface TimeAnnotation {
  start: number;
  end: number;
  text: string;
  granularity: Granularity;
  from: number;
  to: number;
  /** The resolved period in words: "7 May 2023", "the week before 9 June 2023", "May 2023", "2022". */
  label: string;
  /** True when the words needed the reference time ("yesterday", "last Friday", "in May"). */
  relative: boolean;
}

/** When the text was said: an instant and the speaker's UTC offset in minutes (0 when unknown). */
export interface Reference {
  instant: number;
  offsetMinutes?: number | undefined;
}

const COUNT: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const count = (w: string) => COUNT[w.toLowerCase()] ?? Number(w);
const N = String.raw`(a|an|one|two|three|four|five|six|\d{1,2})`;
const WEEKEND = new RegExp(String.raw`\b(?:(last|this|next|past|the)\s+weekend|${N}\s+weekends?\s+ago)\b`, "gi");
const WEEK = new RegExp(String.raw`\b(?:(last|this|next|past)\s+week|${N}\s+weeks?\s+ago)\b`, "gi");
const MONTH = new RegExp(String.raw`\b(?:(last|this|next|past)\s+month|${N}\s+months?\s+ago)\b`, "gi");
const YEAR = /\b(?:in|since|during|from|by|until|of|early|late|mid)[\s-]+((?:19|20)\d{2})\b(?![\s-]*(?:\d|%))/gi;

/** What any date chrono reads contains: a digit or a word of time (most text has neither, and skips the parser). */
const MAY_HOLD_DATE =
  /\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|yesterday|today|tonight|tomorrow|now|noon|midnight|morning|evening|afternoon|night|week|month|year|ago|later|weekend|christmas|eve)/i;

interface Period {
  granularity: Granularity;
  first: number;
  /** Days it spans (periods here are whole local days). */
  days: number;
  label: string;
}

/** Every time expression in `text`, in order of appearance; overlapping readings keep the first found. */
export function findTimeExpressions(text: string, ref: Reference): TimeAnnotation[] {
  const offset = ref.offsetMinutes ?? 0;
  const today = epochDay(localDay(ref.instant, offset));
  const found: TimeAnnotation[] = [];
  const add = (start: number, words: string, p: Period | null, relative: boolean) => {
    const end = start + words.length;
    if (!p || found.some((a) => a.start < end && start < a.end)) return;
    const from = startOf(dayOf(p.first), offset);
    const to = startOf(dayOf(p.first + p.days), offset);
    found.push({ start, end, text: words, granularity: p.granularity, from, to, label: p.label, relative });
  };
  for (const m of text.matchAll(WEEKEND)) add(m.index, m[0], weekend(today, m[1], m[2]), true);
  for (const m of text.matchAll(WEEK)) add(m.index, m[0], week(today, m[1], m[2]), true);
  for (const m of text.matchAll(MONTH)) add(m.index, m[0], month(today, m[1], m[2]), true);
  for (const m of text.matchAll(YEAR)) {
    const year = Number(m[1]);
    add(m.index + m[0].length - 4, m[1]!, yearPeriod(year), false);
  }
  if (!MAY_HOLD_DATE.test(text)) return found.sort((a, b) => a.start - b.start);
  for (const r of chrono().casual.parse(text, { instant: new Date(ref.instant), timezone: offset })) {
    const p = chronoPeriod(r);
    if (p) add(r.index, r.text, p, !/\b\d{4}\b/.test(r.text));
  }
  return found.sort((a, b) => a.start - b.start);
}

function weekend(today: number, which: string | undefined, n: string | undefined): Period {
  const w = isoWeekday(today); // Saturday = 5, Sunday = 6
  const current = w >= 5 ? today - (w - 5) : today + (5 - w); // this weekend's Saturday (the coming one on a weekday)
  const last = current - 7; // "last weekend" on a Saturday or Sunday is the one before this one
  const kind = which?.toLowerCase();
  const back = n === undefined ? (kind === "this" ? 0 : kind === "next" ? -1 : 1) : count(n);
  const saturday = back === 0 ? current : back < 0 ? current + 7 : last - 7 * (back - 1);
  const label =
    back === 1
      ? `the weekend before ${formatDay(dayOf(today))}`
      : back > 1
        ? `${n} weekends before ${formatDay(dayOf(today))}`
        : `the weekend of ${formatDay(dayOf(saturday))}`;
  return { granularity: "weekend", first: saturday, days: 2, label };
}

function week(today: number, which: string | undefined, n: string | undefined): Period {
  const kind = which?.toLowerCase();
  const ref = formatDay(dayOf(today));
  if (kind === "this" || kind === "next") {
    const monday = today - isoWeekday(today) + (kind === "next" ? 7 : 0);
    return {
      granularity: "week",
      first: monday,
      days: 7,
      label: `the week ${kind === "this" ? "of" : "after"} ${ref}`,
    };
  }
  const back = n === undefined ? 1 : count(n); // "last week": the seven days before the reference day
  return {
    granularity: "week",
    first: today - 7 * back,
    days: 7,
    label: back === 1 ? `the week before ${ref}` : `${n} weeks before ${ref}`,
  };
}

/** Calendar months counted from the reference's month (chrono adds days: "next month" on 31 January gave March). */
function month(today: number, which: string | undefined, n: string | undefined): Period {
  const kind = which?.toLowerCase();
  const shift = n !== undefined ? -count(n) : kind === "next" ? 1 : kind === "this" ? 0 : -1;
  const { year, month: m } = dayOf(today);
  const index = year * 12 + (m - 1) + shift;
  return monthPeriod(Math.floor(index / 12), (index % 12) + 1);
}

function monthPeriod(year: number, month: number): Period {
  const first = monthStart(year, month);
  return { granularity: "month", first, days: nextMonthStart(year, month) - first, label: formatMonth(year, month) };
}

function yearPeriod(year: number): Period {
  const first = monthStart(year, 1);
  return { granularity: "year", first, days: monthStart(year + 1, 1) - first, label: String(year) };
}

/** What chrono read, as a day, a month or a year; null for a bare clock time or a duration ("for three days"). */
function chronoPeriod(r: Chrono.ParsedResult): Period | null {
  const s = r.start;
  if (/^for\b/i.test(r.text)) return null;
  const year = s.get("year")!;
  const month = s.get("month")!;
  const dated =
    s.isCertain("day") || s.isCertain("weekday") || [...s.tags()].some((t) => t.startsWith("casualReference"));
  if (dated) {
    const day = { year, month, day: s.get("day")! };
    return { granularity: "day", first: epochDay(day), days: 1, label: formatDay(day) };
  }
  if (s.isCertain("month")) return monthPeriod(year, month);
  return s.isCertain("year") ? yearPeriod(year) : null;
}
