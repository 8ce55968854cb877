// A query that names a time ("in May 2023", "on October 13", "last week") lifts the evidence about that time
// (issue 45 item 3).
import { LIFTED_ROWS, type BaseLift } from "../../search/types.ts";
import { aboutTimes, namedIn, questionTimes } from "../../domain/time/question-time.ts";
import type { Reference, TimeAnnotation } from "../../domain/time/expressions.ts";
import type { ChunkRecord } from "../../ports/documents.ts";

/** Base logit per way a candidate is about the named time (the `time` term of explain), as much as a named speaker's. */
export const TIME_WEIGHT = 1;
/** The lift for a query asked at `asked` that names a time: `weight` for each way a best candidate is about it. */
export function timeFocus(query: string, asked: Reference, weight = TIME_WEIGHT): BaseLift | undefined {
  const targets = weight === 0 ? [] : questionTimes(query, asked);
  if (targets.length === 0) return undefined;
  return {
    term: "time",
    deltas: (rows) =>
      rows.map(({ chunk }, i) =>
        i < LIFTED_ROWS ? aboutTimes(targets, chunk.text, saidAt(chunk), namedTimes(chunk)) * weight : 0,
      ),
  };
}

/** Time expressions of recently lifted chunks: agents ask again about the same evidence, and dates are slow to read. */
const named = new Map<string, { text: string; found: readonly TimeAnnotation[] }>();
function namedTimes(chunk: ChunkRecord): readonly TimeAnnotation[] {
  const key = `${chunk.id}@${saidAt(chunk)}`;
  const hit = named.get(key);
  if (hit?.text === chunk.text) return hit.found;
  if (named.size >= 4096) named.clear();
  const found = namedIn(chunk.text, saidAt(chunk));
  named.set(key, { text: chunk.text, found });
  return found;
}

/** When a chunk was said, or null for one of no known time (its ingest time says nothing about what it tells of). */
const saidAt = (chunk: ChunkRecord): number | null => (chunk.undated ? null : chunk.authoredAt);
