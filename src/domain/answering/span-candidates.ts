// The spans of an evidence sentence that could be the answer: typed spans of the asked kind, noun-phrase-like runs (also trimmed of edge verbs by their POS tags), and runs joined by "of"/"and", quoted titles.
import { typedSpans, type AnswerType } from "./answer-type.ts";
import { phraseSpans } from "./phrases.ts";
import type { Tagged, Tagger } from "./language.ts";
import type { Span } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";

export interface Candidate {
  span: Span;
  /** Matches the pattern of the asked kind (a date for "when", a number for "how many", a capitalized name for "who"/"where"). */
  typed: boolean;
  /** Two or three phrases joined across "of", "and" or "or" ("the theory of tides", "bread and butter"). */
  joined: boolean;
}

/** How phrases may be joined into a longer candidate: the text between two neighbours. */
const JOIN = /^\s+(?:of|and|or|&)(?:\s+the)?\s+$/; // not commas: "in Lyon, and the baker" joins clauses more often than lists
/** At most this many phrases in one joined candidate. */
const MAX_JOINED = 3;
/** A quoted title or term of at most 8 words: the phrase splitter would cut it at its function words. */
const QUOTED = /["“]([^"“”]+)["”]/g;
/** A capitalized word that opens a sentence without naming anything ("Although", "The"): not the start of a name. */
const OPENER =
  /^(?:although|though|while|since|after|before|during|despite|however|when|where|because|if|the|a|an|this|these|those|it|he|she|they|we|in|on|at|for|from|with|by|as|then|thus|later|finally|meanwhile)\s+/i;

/** Marks that join two letters or digits into one word ("4:51", "water-cooled", "28.5", "north/south"): no candidate ends or starts between them. */
const INNER_JOIN = /[-–:./'’]/u;
const ALNUM = /[\p{L}\p{N}]/u;

/**
 * `span` widened to whole words of `text`: the phrase splitter and the tagger cut inside "4:51" ("[51] left") and
 * "water-cooled" ("[water]"), and a currency sign belongs to its amount ("[£30m]"). A possessive stays outside ("Denver['s]").
 */
export function wholeWords(text: string, span: Span): Span {
  let { start, end } = span;
  const at = (i: number) => text.charAt(i);
  while (start > 0 && (ALNUM.test(at(start - 1)) || (INNER_JOIN.test(at(start - 1)) && ALNUM.test(at(start - 2)))))
    start--;
  if (start > 0 && /[$£€]/u.test(at(start - 1)) && /\p{N}/u.test(at(start))) start--;
  while (
    end < text.length &&
    (ALNUM.test(at(end)) || (INNER_JOIN.test(at(end)) && ALNUM.test(at(end + 1)))) &&
    !/^['’]s(?![\p{L}\p{N}])/u.test(text.slice(end, end + 3))
  )
    end++;
  return { start, end };
}

/** The kinds whose typed spans are capitalized names, which a capitalized sentence opener can run into. */
const NAME_KINDS: ReadonlySet<AnswerType> = new Set(["person", "place"]);

/** The word before offset `at` is an auxiliary: an adjective there is a predicate ("the sky is [green]"). */
export function followsAuxiliary(tags: readonly Tagged[], at: number): boolean {
  return tags.findLast((t) => t.end <= at)?.pos === "AUX";
}

/**
 * Candidates of a sentence for a question of `type`, in text order, each once. A question kind with a pattern still gets
 * the phrases (the pattern can miss: "40 minutes left" for "how much time"); the scorer weighs `typed`. None repeats
 * only question words: the answer is what the question does not say.
 */
export function candidateSpans(
  text: string,
  type: AnswerType,
  qTerms: ReadonlySet<string>,
  inQuestion: (word: string) => boolean,
  tag?: Tagger,
): Candidate[] {
  if (type === "sentence") return [];
  const typed = type === "entity" ? [] : typedSpans(text, type);
  const numbers = type === "number" || type === "date" ? [] : typedSpans(text, "number"); // "what score": "3–1", "£30m"
  const phrases = phraseSpans(text, inQuestion);
  const out = new Map<string, Candidate>();
  const add = (cut: Span, isTyped: boolean, joined: boolean) => {
    const span = isTyped ? cut : wholeWords(text, cut); // a kind's pattern sets its own bounds ("[Six]-time")
    const key = `${span.start}:${span.end}`;
    const seen = out.get(key);
    if (seen) seen.typed ||= isTyped;
    else if (tokenize(text.slice(span.start, span.end)).some((t) => !qTerms.has(t)))
      out.set(key, { span, typed: isTyped, joined });
  };
  for (const s of typed) {
    // "Although Solberg" -> "Solberg"; a lone "Although" is nothing. Only names: "this month" is a date with its "this".
    const opener = NAME_KINDS.has(type) ? OPENER.exec(`${text.slice(s.start, s.end)} `) : null;
    if (!opener) add(s, true, false);
    else if (s.start + opener[0].length < s.end) add({ start: s.start + opener[0].length, end: s.end }, true, false);
  }
  for (const m of text.matchAll(QUOTED))
    if (m[1]!.split(/\s+/).length <= 8) add({ start: m.index + 1, end: m.index + 1 + m[1]!.length }, false, false);
  for (const s of [...phrases, ...numbers]) add(s, false, false);
  const tags = tag?.(text) ?? [];
  for (const s of phrases) {
    const inside = tags.filter((t) => t.start < s.end && t.end > s.start);
    let i = 0;
    let j = inside.length;
    while (i < j && /^(?:VERB|AUX|ADV)$/.test(inside[i]!.pos)) i++; // "drew [four lighthouses]": the splitter's phrase runs in from a verb
    while (j > i && /^(?:VERB|AUX|ADV|ADP)$/.test(inside[j - 1]!.pos)) j--; // "[coast office] employed"
    if (i < j && (i > 0 || j < inside.length))
      add({ start: Math.max(s.start, inside[i]!.start), end: Math.min(s.end, inside[j - 1]!.end) }, false, false);
  }
  // "the sky is [green]": the phrase splitter drops a predicate adjective.
  for (const t of tags)
    if (t.pos === "ADJ" && followsAuxiliary(tags, t.start) && !inQuestion(text.slice(t.start, t.end).toLowerCase()))
      add({ start: t.start, end: t.end }, false, false);
  for (let i = 0; i < phrases.length; i++) {
    for (let j = i + 1; j < Math.min(phrases.length, i + MAX_JOINED); j++) {
      if (!JOIN.test(text.slice(phrases[j - 1]!.end, phrases[j]!.start))) break;
      add({ start: phrases[i]!.start, end: phrases[j]!.end }, false, true);
    }
  }
  return [...out.values()].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}
