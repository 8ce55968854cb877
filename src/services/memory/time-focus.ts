// A query that names a time ("in May 2023", "on October 13", "last week") lifts the evidence about that time (issue 45 item 3).
import { LIFTED_ROWS, type BaseLift } from "../../search/types.ts";
import { aboutTimes, questionTimes } from "../../domain/time/question-time.ts";
import { findTimeExpressions, type Reference, type TimeAnnotation } from "../../domain/time/expressions.ts";
import type { ChunkRecord } from "../../ports/documents.ts";

/** Base logit added per way a candidate is about the named time (the `time` term of explain), as much as a named speaker's. */
export const TIME_WEIGHT = 1;
/** The lift for a query asked at `asked` that names a time: `weight` for each way one of the best candidates is about it; none without one. */
export function timeFocus(query: string, asked: Reference, weight = TIME_WEIGHT): BaseLift | undefined {
  const targets = weight === 0 ? [] : questionTimes(query, asked);
  if (targets.length === 0) return undefined;
  return {
    term: "time",
    deltas: (rows) =>
      rows.map(({ chunk }, i) =>
        i < LIFTED_ROWS ? aboutTimes(targets, chunk.text, chunk.authoredAt, namedTimes(chunk)) * weight : 0,
      ),
  };
}

/** Time expressions of recently lifted chunks, by row: agents ask again about the same evidence, and a chunk's dates are slow to read. */
const named = new Map<string, { text: string; found: readonly TimeAnnotation[] }>();
function namedTimes(chunk: ChunkRecord): readonly TimeAnnotation[] {
  const key = `${chunk.id}@${chunk.authoredAt}`;
  const hit = named.get(key);
  if (hit?.text === chunk.text) return hit.found;
  if (named.size >= 4096) named.clear();
  const found = findTimeExpressions(chunk.text, { instant: chunk.authoredAt });
  named.set(key, { text: chunk.text, found });
  return found;
}
