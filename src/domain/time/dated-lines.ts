// Dates that open a line (a session header, a turn's stamp) date what follows them: a transcript's chunks get their
// own event time instead of the whole document's.
import type * as Chrono from "chrono-node";
import { chrono } from "./chrono.ts";

const HAS_YEAR = /\b(?:19|20)\d{2}\b/;
const STARTS_LIKE_DATE =
  /^(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\b)/i;
/** Markup and a label before the stamp: "## ", "[", "- ", "Session 3 - ", "Date: ". */
const LEAD = /^[\s#>*_\-[(|]*(?:(?:session|day|entry|date|meeting)\b[^:\n\d]*\d*\s*[:\-–—,)]?\s*)?/i;

/** Each line that starts with an absolute date: its offset and the instant (UTC when the stamp gives no offset). */
export function datedLines(content: string): { offset: number; at: number }[] {
  const stamps: { offset: number; at: number }[] = [];
  for (const line of content.matchAll(/^.*$/gm)) {
    if (!HAS_YEAR.test(line[0])) continue;
    const rest = line[0].replace(LEAD, "").slice(0, 60);
    if (!STARTS_LIKE_DATE.test(rest)) continue; // most lines with a year in them are not stamps: skip the parser
    const r = chrono().casual.parse(rest, { instant: new Date(0), timezone: 0 })[0];
    if (!r || r.index > 0 || !["year", "month", "day"].every((c) => r.start.isCertain(c as Chrono.Component))) continue;
    const s = r.start;
    const at = s.isCertain("hour") ? s.date().getTime() : Date.UTC(s.get("year")!, s.get("month")! - 1, s.get("day")!);
    stamps.push({ offset: line.index, at });
  }
  return stamps;
}

/** A chunk's event time: the last stamp at or before its start, else the first inside it (a title above the first header). */
export function chunkStamp(
  stamps: readonly { offset: number; at: number }[],
  chunk: { start: number; end: number },
): number | undefined {
  let at: number | undefined;
  for (const s of stamps) if (s.offset <= chunk.start) at = s.at;
  return at ?? stamps.find((s) => s.offset < chunk.end)?.at;
}
