// Two readings chrono-node's English parser lacks, added to it as parsers of its own (chrono.ts): the weekday
// abbreviations it has no entry for ("last Tues", "Weds"), and a month named after a relative word ("last September"
// said in May 2023 is September 2022; chrono reads the month alone, forward, and misses "last Aug").
import type * as Chrono from "chrono-node";

type Casual = Chrono.Chrono;
type Parser = Chrono.Parser;

const RELATIVE = "this|last|past|next";

/** The weekday words chrono has no entry for, as the ones it has. */
const WEEKDAY_ALIASES: Record<string, string> = { tues: "Tuesday", weds: "Wednesday" };

const MONTH_NAMES = "january february march april may june july august september october november december".split(" ");
/** Month names and their abbreviations (as chrono-node's MONTH_DICTIONARY has them), by month number. */
const MONTHS: Record<string, number> = Object.fromEntries([
  ...MONTH_NAMES.flatMap((name, i) => [
    [name, i + 1],
    [name.slice(0, 3), i + 1],
  ]),
  ["sept", 9],
]);

/**
 * "Tues", "last Tues": read by chrono itself as the weekday it names in full, against the same reference (so
 * "last", "next" and "this" mean what they mean for "last Tuesday").
 */
export function weekdayAliases(base: Casual): Parser {
  const words = Object.keys(WEEKDAY_ALIASES).join("|");
  return {
    pattern: () => new RegExp(String.raw`\b(?:(${RELATIVE})\s+)?(${words})\b`, "i"),
    extract: (context, match) => {
      const canonical = `${match[1] ?? ""} ${WEEKDAY_ALIASES[match[2]!.toLowerCase()]}`.trim();
      const { instant, timezoneOffset } = context.reference;
      const ref =
        timezoneOffset === undefined || timezoneOffset === null ? instant : { instant, timezone: timezoneOffset };
      const read = base.parse(canonical, ref)[0]?.start;
      if (!read) return null;
      return {
        year: read.get("year")!,
        month: read.get("month")!,
        day: read.get("day")!,
        weekday: read.get("weekday")!,
      };
    },
  };
}

/**
 * "last/past September" is the latest September before the reference's month, "next September" the first after it,
 * "this September" the one in the reference's year; a month day after it ("next Jan 5") is left to chrono. The modal
 * "may" is not a month: "May" counts only capitalised and not after "this" ("This may take a while"); nor is the noun
 * "march" ("the last march of the season"): "March" counts only capitalised.
 */
export function relativeMonths(): Parser {
  const words = Object.keys(MONTHS).join("|");
  return {
    pattern: () => new RegExp(String.raw`\b(${RELATIVE})\s+(${words})\b(?!\.?\s*\d)`, "i"),
    extract: (context, match) => {
      const which = match[1]!.toLowerCase();
      const word = match[2]!;
      if (word.toLowerCase() === "may" && (word !== "May" || which === "this")) return null;
      if (word.toLowerCase() === "march" && word !== "March") return null;
      const month = MONTHS[word.toLowerCase()]!;
      const now = context.reference.getDateWithAdjustedTimezone(); // the reference's local fields, as chrono reads them
      const [year, current] = [now.getFullYear(), now.getMonth() + 1];
      const shift = which === "next" ? (month > current ? 0 : 1) : which === "this" ? 0 : month < current ? 0 : -1;
      return context.createParsingComponents({ year: year + shift, month }).imply("day", 1);
    },
  };
}
