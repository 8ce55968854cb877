// Evidence for the answer confidence beyond the sentence score: the question's names in the cited chunk, and rival sentences.
import { tokenize } from "../text/tokenize.ts";

const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;
/** A name counts as found in a word sharing its first letters ("Amazon" ~ "Amazonian"), for names at least this long. */
const NAME_PREFIX = 5;
/** A sentence scoring at least this share of the best one's score rivals it. */
export const RIVAL_SHARE = 0.8;
/** Rivals are counted among this many best sentences (the service keeps 8), so the confidence does not depend on how many a caller keeps. */
const RIVALS_AMONG = 8;

/** The question's names as written: its capitalized words, less the first (capitalized by position). */
export const questionNames = (question: string): string[] =>
  [...question.matchAll(WORD)]
    .slice(1)
    .map((m) => m[0])
    .filter((w) => /^\p{Lu}/u.test(w));

/** Share of the question's names that occur in `text`, also as the start of a longer word; 1 when it names nothing. */
export function namesFound(question: string, text: string): number {
  const names = questionNames(question).flatMap((w) => tokenize(w));
  if (names.length === 0) return 1;
  const terms = new Set(tokenize(text));
  const prefixes = new Set([...terms].filter((t) => t.length >= NAME_PREFIX).map((t) => t.slice(0, NAME_PREFIX)));
  return (
    names.filter((n) => terms.has(n) || (n.length >= NAME_PREFIX && prefixes.has(n.slice(0, NAME_PREFIX)))).length /
    names.length
  );
}

/** 1 / the number of the RIVALS_AMONG first `scores` at least RIVAL_SHARE of the best score (the best included): 1 = it stands alone, small = many near-ties. */
export function standsAlone(best: number, scores: readonly number[]): number {
  if (best <= 0) return 0;
  return 1 / Math.max(1, scores.slice(0, RIVALS_AMONG).filter((s) => s >= RIVAL_SHARE * best).length);
}

const PERSONAL = /\b(?:I|I'm|I've|I'd|me|my|mine|you|your|yours|we|we're|our|us)\b/i;
/** 1 when the sentence speaks in the first or second person (a chat turn, a diary): its facts are relative to the speaker, so a gold answer restates rather than quotes them. */
export const personal = (text: string): number => (PERSONAL.test(text) ? 1 : 0);
