// A request's filters as the search index reads them: the event-time window (occurred_after, occurred_before, as_of).
import type { RecallFilters } from "../../contract/memory.ts";
import type { ChunkFilter } from "../../search/types.ts";

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

/** What a response says about how its time filters were read (a future as_of is allowed, and said). */
export function timeNotes(filters: RecallFilters | undefined, now: Date): { notes?: string[] } {
  const asOf = parse(filters?.as_of);
  if (asOf === undefined || asOf <= now.getTime()) return {};
  return {
    notes: [`as_of ${filters!.as_of} is in the future: memory as it stands now (${now.toISOString()}) is used`],
  };
}
