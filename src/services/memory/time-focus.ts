// A query that names a time ("in May 2023", "on October 13") lifts the evidence about that time (issue 45 item 3).
import { LIFTED_ROWS, type BaseLift } from "../../search/types.ts";
import { aboutTimes, questionTimes } from "../../domain/time/question-time.ts";

/** Base logit added to a candidate about the named time (the `time` term of explain), as much as a named speaker's. */
export const TIME_WEIGHT = 1;
/** The lift for a query that names a time: `weight` for each of the best candidates about it; none without one. */
export function timeFocus(query: string, weight = TIME_WEIGHT): BaseLift | undefined {
  const targets = weight === 0 ? [] : questionTimes(query);
  if (targets.length === 0) return undefined;
  return {
    term: "time",
    deltas: (rows) =>
      rows.map(({ chunk }, i) => (i < LIFTED_ROWS && aboutTimes(targets, chunk.text, chunk.authoredAt) ? weight : 0)),
  };
}
