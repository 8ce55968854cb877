// The rules that read a query's best candidates and move them before calibration, in the order they apply.
import type { BaseLift } from "../../search/types.ts";
import { currentFirst } from "./current-first.ts";
import { timeFocus } from "./time-focus.ts";

/** A time the query names lifts the evidence about it; then, for a question about the present, the newest value first. */
export function recallLifts(query: string): BaseLift[] {
  return [timeFocus(query), currentFirst(query)].filter((l) => l !== undefined);
}
