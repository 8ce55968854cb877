// Does a stored sentence contradict or qualify a claim? Shared subject (content words) plus opposite polarity, contrast or another figure. Pure.
import { tokenize } from "../text/tokenize.ts";

export type CounterReason = "negation" | "contrast" | "different_number";

/** Share of the claim's content words the other sentence repeats before it counts as talking about the same thing. */
const SAME_SUBJECT = 0.5;
const NEGATION =
  /\b(?:not|no|never|none|neither|nor|cannot|without|false|incorrect|untrue|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|fails? to)\b|n't\b/i;
const CONTRAST = /\b(?:however|but|although|though|except|unless|contrary|instead|rather than|only when|not always)\b/i;
const NUMBER = /\d+(?:[.,]\d+)?/g;

export function counterReason(claim: string, other: string): CounterReason | null {
  const claimTerms = new Set(tokenize(claim).filter((t) => !/^\d/.test(t)));
  if (claimTerms.size === 0) return null;
  const otherTerms = new Set(tokenize(other));
  let shared = 0;
  for (const t of claimTerms) if (otherTerms.has(t)) shared++;
  if (shared / claimTerms.size < SAME_SUBJECT) return null;
  if (NEGATION.test(claim) !== NEGATION.test(other)) return "negation";
  const claimNumbers = new Set(claim.match(NUMBER) ?? []);
  const otherNumbers = other.match(NUMBER) ?? [];
  if (claimNumbers.size > 0 && otherNumbers.length > 0 && otherNumbers.every((n) => !claimNumbers.has(n)))
    return "different_number";
  if (CONTRAST.test(other) && !CONTRAST.test(claim)) return "contrast";
  return null;
}
