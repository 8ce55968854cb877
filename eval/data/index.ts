// The eval sets by name.
import type { EvalSet } from "../types.ts";
import { loadLocomo } from "./locomo.ts";
import { loadLongMemEval } from "./longmemeval.ts";
import { loadScifact } from "./scifact.ts";

export const SETS: Record<string, () => EvalSet> = {
  locomo: loadLocomo,
  longmemeval: loadLongMemEval,
  scifact: loadScifact,
};

export const SET_NAMES = Object.keys(SETS);
