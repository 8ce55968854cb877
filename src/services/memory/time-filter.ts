// A request's filters as the search index reads them (the event-time window: occurred_after, occurred_before, as_of),
// and what its response says of how its times were read.
import type { RecallFilters } from "../../contract/memory.ts";
import type { ChunkFilter } from "../../search/types.ts";
import type { Reference } from "../../domain/time/expressions.ts";
import { askedReadings } from "../../domain/time/question-time.ts";

const parse = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso));
const latest = (...xs: (number | undefined)[]) => pick(xs, Math.max);
const earliest = (...xs: (number | undefined)[]) => pick(xs, Math.min);
function pick(xs: (number | undefined)[], f: (...n: number[]) => number): number | undefined {
  const known = xs.filter((x): x is number => x !== undefined);
  return known.length ? f(...known) : undefined;
}

/** How a request reads replacements: as of its as_of (epoch ms), and whether statements are compared too. */
export const supersessionOptions = (filters: RecallFilters | undefined) => ({
  asOf: parse(filters?.as_of),
  detect: filters?.detect_supersession === true,
});

/** The index filter: the tightest of each bound given; as_of keeps what occurred up to and including it. */
export function toFilter(filters: RecallFilters | undefined): ChunkFilter {
  const asOf = parse(filters?.as_of);
  return {
    sourcePathPrefix: filters?.source_path_prefix,
    since: latest(parse(filters?.occurred_after), parse(filters?.since)),
    until: earliest(parse(filters?.occurred_before), parse(filters?.until), asOf === undefined ? undefined : asOf + 1),
  };
}

/** What a response says about how its times were read: a future as_of (allowed, and said), the question's relative words. */
export function timeNotes(
  filters: RecallFilters | undefined,
  now: Date,
  question: { text: string; asked: Reference },
): { notes?: string[] } {
  const asOf = parse(filters?.as_of);
  const notes = [
    ...(asOf !== undefined && asOf > now.getTime()
      ? [`as_of ${filters!.as_of} is in the future: memory as it stands now (${now.toISOString()}) is used`]
      : []),
    ...askedReadings(question.text, question.asked),
  ];
  return notes.length ? { notes } : {};
}
