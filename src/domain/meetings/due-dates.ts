// Due dates of action items: the phrase as written ("by Friday", "before March 3") and, when resolvable, an ISO date. Pure.

export interface DueDraft {
  /** [start, end) of the phrase within the searched text. */
  start: number;
  end: number;
  /** YYYY-MM-DD, or null when the phrase names no day ("next meeting", "ASAP") or needs a meeting date that was not given. */
  date: string | null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const EXPRESSIONS = [
  String.raw`(\d{4})-(\d{2})-(\d{2})`,
  String.raw`(${MONTH})[ \t]+${DAY}(?:,?[ \t]+(\d{4}))?`,
  String.raw`${DAY}[ \t]+(?:of[ \t]+)?(${MONTH})(?:,?[ \t]+(\d{4}))?`,
  String.raw`(this[ \t]+|next[ \t]+)?(${WEEKDAYS.join("|")})`,
  String.raw`(?:the[ \t]+)?(day after tomorrow|tomorrow|today|tonight|end of (?:the )?(?:day|week|month)|end of next week|eod|eow|eom|next week|next month|next meeting|asap)`,
  String.raw`in[ \t]+(\d{1,3}|a|one|two|three)[ \t]+(days?|weeks?)`,
];
const PHRASE = new RegExp(
  String.raw`\b(?:(?:by|before|until|till|due(?:[ \t]+(?:on|by))?|no later than|on)[ \t]+)?(?:${EXPRESSIONS.map((e) => `(?:${e})`).join("|")})\b`,
  "i",
);

/** The first due phrase in `text`, resolved against `meetingDate` (YYYY-MM-DD) when relative; null when there is none. */
export function findDue(text: string, meetingDate: string | null): DueDraft | null {
  const m = PHRASE.exec(text);
  if (!m) return null;
  const g = (i: number) => m[i];
  const base = meetingDate ? parseIso(meetingDate) : null;
  let date: Date | null = null;
  if (g(1)) date = ymd(Number(g(1)), Number(g(2)), Number(g(3)));
  else if (g(4)) date = monthDay(monthOf(g(4)), Number(g(5)), g(6), base);
  else if (g(8)) date = monthDay(monthOf(g(8)), Number(g(7)), g(9), base);
  else if (g(11)) date = base && weekday(base, WEEKDAYS.indexOf(g(11)!.toLowerCase()), /next/i.test(g(10) ?? ""));
  else if (g(12)) date = base && relative(base, g(12)!.toLowerCase());
  else if (g(13)) date = base && addDays(base, countOf(g(13)!) * (/week/i.test(g(14) ?? "") ? 7 : 1));
  return { start: m.index, end: m.index + m[0].length, date: date ? iso(date) : null };
}

const DAY_MS = 86_400_000;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const iso = (d: Date) => d.toISOString().slice(0, 10);
const monthOf = (s: string | undefined) => MONTHS.indexOf((s ?? "").slice(0, 3).toLowerCase());
const countOf = (s: string) => ({ a: 1, one: 1, two: 2, three: 3 })[s.toLowerCase()] ?? Number(s);

function parseIso(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? ymd(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** A real calendar day in UTC, or null (2024-02-30 is not one). */
function ymd(y: number, m: number, d: number): Date | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date : null;
}

/** Without a year: the first such day on or after the meeting (null without a meeting date). */
function monthDay(month: number, day: number, year: string | undefined, base: Date | null): Date | null {
  if (year) return ymd(Number(year), month + 1, day);
  if (!base) return null;
  const sameYear = ymd(base.getUTCFullYear(), month + 1, day);
  return sameYear && sameYear >= base ? sameYear : ymd(base.getUTCFullYear() + 1, month + 1, day);
}

/** "Friday" = the first Friday after the meeting day; "next Friday" = the Friday of the following Monday-based week. */
function weekday(base: Date, target: number, next: boolean): Date {
  if (!next) return addDays(base, ((target - base.getUTCDay() + 6) % 7) + 1);
  const nextMonday = addDays(base, ((1 - base.getUTCDay() + 6) % 7) + 1);
  return addDays(nextMonday, (target + 6) % 7);
}

function relative(base: Date, phrase: string): Date | null {
  const friday = (d: Date) => addDays(d, (5 - d.getUTCDay() + 7) % 7);
  switch (phrase) {
    case "today":
    case "tonight":
    case "end of the day":
    case "end of day":
    case "eod":
      return base;
    case "tomorrow":
      return addDays(base, 1);
    case "day after tomorrow":
      return addDays(base, 2);
    case "end of the week":
    case "end of week":
    case "eow":
      return friday(base);
    case "next week":
      return weekday(base, 1, true);
    case "end of next week":
      return weekday(base, 5, true);
    case "end of the month":
    case "end of month":
    case "eom":
      return new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0));
    case "next month":
      return new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 1));
    default:
      return null;
  }
}
