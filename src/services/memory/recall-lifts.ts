// The rules that read a query's best candidates and move them before calibration, in the order they apply.
import type { BaseLift } from "../../search/types.ts";
import { currentFirst } from "./current-first.ts";
import { timeFocus } from "./time-focus.ts";
import type { Reference } from "../../domain/time/expressions.ts";

/** A time the query names (relative words read against `asked`) lifts the evidence about it; then, for a question about the present, the newest value first. */
export function recallLifts(query: string, asked: Reference): BaseLift[] {
  return [timeFocus(query, asked), currentFirst(query)].filter((l) => l !== undefined);
}
