// Calendar days at a fixed UTC offset: day arithmetic, week starts, month and year bounds, and how a day is written.
const DAY = 86_400_000;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A calendar day as (year, month 1-12, day) at some offset; `epochDay` orders and counts them. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

export const epochDay = (d: Day): number => Date.UTC(d.year, d.month - 1, d.day) / DAY;
export function dayOf(epoch: number): Day {
  const t = new Date(epoch * DAY);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}
/** The local day an instant falls on at `offsetMinutes` east of UTC. */
export const localDay = (instant: number, offsetMinutes: number): Day =>
  dayOf(Math.floor((instant + offsetMinutes * 60_000) / DAY));
/** The instant a local day starts at that offset. */
export const startOf = (d: Day, offsetMinutes: number): number => epochDay(d) * DAY - offsetMinutes * 60_000;

/** 0 = Monday ... 6 = Sunday (ISO weeks start on Monday). */
export const isoWeekday = (epoch: number): number => (((epoch + 3) % 7) + 7) % 7;
export const monthStart = (year: number, month: number): number => epochDay({ year, month, day: 1 });
/** The first day of the month after (month may be 12: the next January). */
export const nextMonthStart = (year: number, month: number): number =>
  month === 12 ? monthStart(year + 1, 1) : monthStart(year, month + 1);

export const formatDay = (d: Day): string => `${d.day} ${MONTHS[d.month - 1]} ${d.year}`;
/** Days first to last, both included: "11-25 January 2023", "30 December 2022 - 2 January 2023". */
export function formatDays(first: Day, last: Day): string {
  if (epochDay(first) === epochDay(last)) return formatDay(first);
  if (first.year === last.year && first.month === last.month)
    return `${first.day}-${last.day} ${MONTHS[last.month - 1]} ${last.year}`;
  return `${formatDay(first)} - ${formatDay(last)}`;
}
export const formatMonth = (year: number, month: number): string => `${MONTHS[month - 1]} ${year}`;
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
/** The UTC offset an ISO 8601 time is written at, in minutes east ("Z" and no offset are 0). */
export function offsetMinutesOf(iso: string): number {
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}
