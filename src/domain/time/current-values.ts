// Which statements give the value a question about the present asks for ("How many tops have I bought so far?", "What
// is my current record?"), so recall can put the latest first (issue 45 item 4, without the pairwise detector).
import { claimsOf, contentWords } from "./changed-facts.ts";

/** Words that ask what holds now. */
const NOW = /\b(?:now|currently|current|still|so far|these days|at the moment|at present|nowadays|any ?more|latest)\b/i;
/** Words that ask about an earlier state: without a word of NOW, the question is not about the present. */
const BEFORE =
  /\b(?:previous(?:ly)?|before|earlier|used to|originally|initially|at first|formerly|prior|old|first|last time)\b/i;
/** A present-tense question: its first auxiliary is present ("do I", "is my", "have I bought", "does Caroline"). */
const FIRST_AUXILIARY = /\b(do|does|is|are|am|has|have|did|was|were|had)\b/i;

/** A total adds the values of several statements: none replaces another. */
const TOTAL = /\b(?:total|in all|altogether|combined|sum)\b/i;

/** The kind of value a question asks for, when its words say ("how many" a count, "how often" a frequency). */
function askedKind(question: string): string | null {
  if (/\bhow (?:many|much)\b|\bnumber of\b/i.test(question)) return "number";
  if (/\bhow often\b/i.test(question)) return "frequency";
  if (/\b(?:record|score)\b/i.test(question)) return "score";
  return null;
}

/** Whether the question asks what holds now: a word for now, or present tense and no word for before. */
export function asksPresentState(question: string): boolean {
  if (NOW.test(question)) return true;
  if (BEFORE.test(question)) return false;
  const aux = FIRST_AUXILIARY.exec(question)?.[1]?.toLowerCase();
  return aux !== undefined && !["did", "was", "were", "had"].includes(aux);
}

/** A statement's value for what the question asks, and who said it (a text names its speaker as "Name: ..."). */
export interface StatedValue {
  speaker: string | null;
  value: string;
}

/** Shared words that tie a sentence to the question's subject (a count's unit counts as one). */
export const MIN_SHARED_WITH_QUESTION = 2;

/**
 * For a question about the present state of a value its words name the kind of (a count, a frequency, a score), what
 * value a text gives for it: a sentence stating a value of that kind (a count with its unit) and sharing at least two
 * content words with the question. Null for any other question (and for a total): then no order is preferred.
 */
export function askedValue(question: string): ((text: string) => StatedValue | null) | null {
  const kind = askedKind(question);
  if (kind === null || TOTAL.test(question) || !asksPresentState(question)) return null;
  const words = new Set(contentWords(question));
  if (words.size < MIN_SHARED_WITH_QUESTION) return null;
  return (text) => {
    for (const c of claimsOf(text)) {
      if (c.kind !== kind || (c.kind === "number" && c.unit === null)) continue;
      const about = [...c.key, ...(c.unit === null ? [] : [c.unit])];
      if (new Set(about.filter((w) => words.has(w))).size >= MIN_SHARED_WITH_QUESTION)
        return { speaker: c.speaker, value: c.value };
    }
    return null;
  };
}
