// A query that names a time ("in May 2023", "on October 13", "last week") lifts the evidence about that time (issue 45 item 3).
import { LIFTED_ROWS, type BaseLift } from "../../search/types.ts";
import { aboutTimes, questionTimes } from "../../domain/time/question-time.ts";
import type { Reference } from "../../domain/time/expressions.ts";

/** Base logit added per way a candidate is about the named time (the `time` term of explain), as much as a named speaker's. */
export const TIME_WEIGHT = 1;
/** The lift for a query asked at `asked` that names a time: `weight` for each way one of the best candidates is about it; none without one. */
export function timeFocus(query: string, asked: Reference, weight = TIME_WEIGHT): BaseLift | undefined {
  const targets = weight === 0 ? [] : questionTimes(query, asked);
  if (targets.length === 0) return undefined;
  return {
    term: "time",
    deltas: (rows) =>
      rows.map(({ chunk }, i) => (i < LIFTED_ROWS ? aboutTimes(targets, chunk.text, chunk.authoredAt) * weight : 0)),
  };
}
