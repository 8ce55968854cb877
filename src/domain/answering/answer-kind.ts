// Whether a span is of the kind the question asks for: a wrong-typed span is never the answer (issue 40 item 1).
import { typedSpans, type AnswerType } from "./answer-type.ts";
import type { NameReader } from "./language.ts";
import type { Span } from "../text/sentences.ts";

/** Words that name a time: a "who"/"where" answer is never one ("March", "Monday"), a "when" answer may be one alone. */
const TIME_WORD =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|today|tonight|tomorrow|yesterday|spring|summer|autumn|fall|winter|morning|afternoon|evening|night|noon|midnight|weekend|week|month|year|decade|century|quarter|q[1-4]|h[12]|am|pm|early|late|mid|last|next|this|the|of|in|on|at|end|start|beginning|middle)$/i;
/** Of TIME_WORD, those that name a time on their own (not "the", "last", "of"). */
const TIME_NOUN =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tonight|tomorrow|yesterday|spring|summer|autumn|winter|morning|afternoon|evening|noon|midnight|weekend|q[1-4]|h[12])$/i;
const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;
/** A capitalized word: people, organisations and places are named ("the platform team" names no one). */
const NAMED = /(?<![\p{L}\p{N}])\p{Lu}/u;
/** A code of letters and digits ("eu-west-2", "us-east-1", "B12"): how systems name regions, rooms and sites. */
const CODE = /\p{L}[-_]?\d|\d[-_]?\p{L}/u;
/** The kinds this check decides; "entity" (what/which) and "sentence" (why/how) have no pattern to hold a span to. */
export const CHECKED_KINDS: ReadonlySet<AnswerType> = new Set(["person", "place", "date", "number"]);

const covered = (text: string, type: "date" | "number") =>
  typedSpans(text, type).reduce((n, s) => n + s.end - s.start, 0) >=
  text.replace(/^(?:the|a|an|in|on|at|by|of)\s+/i, "").trim().length * 0.6;

/** The span is a time or a quantity and nothing else: all its words are time words or numbers, or a date/number pattern covers most of it. */
export function isTimeOrQuantity(text: string): boolean {
  const words = [...text.matchAll(WORD)].map((m) => m[0]);
  if (words.length === 0) return true;
  if (words.every((w) => TIME_WORD.test(w) || /^[\d.,:]+(?:st|nd|rd|th|s)?$/.test(w))) return true;
  return covered(text, "date") || covered(text, "number");
}

/**
 * `text` has the asked kind: a date holds a date pattern or a time noun; a number holds a number; a person (or an
 * organisation) holds a name, a place a name or a code ("eu-west-2"), and neither is a time or a quantity. Other kinds pass.
 */
export function hasAskedKind(text: string, type: AnswerType): boolean {
  switch (type) {
    case "date":
      return typedSpans(text, "date").length > 0 || [...text.matchAll(WORD)].some((m) => TIME_NOUN.test(m[0]));
    case "number":
      return typedSpans(text, "number").length > 0;
    case "person":
      return NAMED.test(text) && !isTimeOrQuantity(text);
    case "place":
      return (NAMED.test(text) || CODE.test(text)) && !isTimeOrQuantity(text);
    default:
      return true;
  }
}

/** A question about what happened ("When did ...", "When was ..."), or about what is to come ("When will ..."). */
const ASKS_PAST = /^\s*when\s+(?:did|was|were|had)\b/i;
const ASKS_FUTURE = /^\s*when\s+(?:will|shall|(?:is|are|am)\s+(?:\S+\s+){1,4}?going\s+to)\b/i;
/** Time words that point ahead of when they were said (a plan), or back from it (a report). */
const AHEAD =
  /\b(?:next|tomorrow|upcoming|coming|in\s+(?:a|an|one|two|three|four|five|six|few|couple\s+of|\d+)\s+(?:days?|weeks?|weekends?|months?|years?))\b/i;
const BACK = /\b(?:last|yesterday|ago|previous|earlier\s+(?:this|today))\b/i;

/** A sentence that states an intention or a plan: it does not report something that has happened. */
const PLAN =
  /\b(?:will|shall|going\s+to|gonna|plan(?:s|ning)?\s+to|thinking\s+(?:about|of)|hop(?:e|ing)\s+to|wants?\s+to|would\s+like\s+to)\b|['’]ll\b/i;

/**
 * A sentence with no time of its own reports its event as of when it was said ("I just launched an ad campaign", "My
 * store is open!"): it answers "When did ..." (not "When will ...") unless it is a plan or a question.
 */
export function saidThen(question: string, sentence: string): boolean {
  return !ASKS_FUTURE.test(question) && !PLAN.test(sentence) && !AHEAD.test(sentence) && !/\?\s*$/.test(sentence);
}

/**
 * A time span answers a when-question only in the question's direction: "next month" in "we're thinking of camping next
 * month" is a plan, not when the camping happened, and "last week" does not say when something will happen.
 */
export function fitsTense(question: string, span: string): boolean {
  if (ASKS_PAST.test(question)) return !AHEAD.test(span);
  if (ASKS_FUTURE.test(question)) return !BACK.test(span);
  return true;
}

/**
 * A lone capitalized word opening the sentence is capitalized by position, not as a name ("Open question: ...",
 * "Paleoclimatologists measure ..."): it names someone or somewhere only when `reads` says so. Without it every span passes.
 */
export function namedByPosition(sentence: string, span: Span, reads: NameReader | undefined): boolean {
  if (!reads || sentence.slice(0, span.start).trim() !== "" || /\s/.test(sentence.slice(span.start, span.end).trim()))
    return true;
  return reads(sentence, span.start);
}
