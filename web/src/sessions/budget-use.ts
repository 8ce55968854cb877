// How much of a health budget a session has used, so every bar reads the same way: empty is untouched, full is crossed.
// A ceiling (max_*) is used as value / limit. min_score is a floor: its room is the way from a perfect 1 down to the
// floor, so a score of 1 has used none of it and a score at the floor all of it (issue 41: "1 / 0.20" drawn 20% full
// read as bad health).
import type { HealthSnapshot } from "../../../src/client/index.ts";

type Budget = HealthSnapshot["budgets"][number];

export interface BudgetUse {
  /** Share of the budget used, 0 to 1 (capped; `crossed` says when it went past). */
  used: number;
  /** The figures in words: "3 of 10", or "score 0.85, floor 0.20". */
  figures: string;
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const clamp = (n: number): number => Math.min(1, Math.max(0, n));

export function budgetUse(b: Budget): BudgetUse {
  if (b.name === "min_score") {
    const room = 1 - b.limit;
    const used = room > 0 ? clamp((1 - b.value) / room) : b.value < b.limit ? 1 : 0;
    return { used, figures: `score ${fmt(b.value)}, floor ${fmt(b.limit)}` };
  }
  return {
    used: b.limit > 0 ? clamp(b.value / b.limit) : b.value > 0 ? 1 : 0,
    figures: `${fmt(b.value)} of ${fmt(b.limit)}`,
  };
}
