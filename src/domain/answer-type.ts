// What kind of answer a question asks for, and the spans of a sentence that could be one.
import type { Span } from "./sentences.ts";

export type AnswerType = "person" | "date" | "number" | "place" | "entity" | "sentence";

export function answerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (/\b(when|what (year|date|day|month|time)|which (year|date|day|month))\b/.test(q)) return "date";
  if (/\b(how (many|much|long|old|far|large|big|tall)|what (number|percentage|percent|amount))\b/.test(q)) return "number";
  if (/\bwho(m|se)?\b/.test(q)) return "person";
  if (/\bwhere\b|\bwhat (city|country|state|place|region)\b/.test(q)) return "place";
  if (/^\s*(what|which)\b.*\b(name|called|named)\b/.test(q) || /^\s*which\b/.test(q)) return "entity";
  return "sentence";
}

const MONTH = "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const PATTERNS: Record<Exclude<AnswerType, "sentence">, RegExp> = {
  date: new RegExp(
    `\\b(?:\\d{1,2}\\s+${MONTH}(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{4}|(?:early |late |mid-?)?\\d{4}s?|\\d{1,2}(?:st|nd|rd|th) century|\\d{4}-\\d{2}-\\d{2}|(?:last|next|this) (?:week|month|year|weekend|\\w+day))\\b`,
    "g",
  ),
  number: /\b(?:\$|£|€)?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|million|billion|thousand|hundred|km|miles|years?|days?|hours?|minutes?|people|times))?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|billion))*\b/gi,
  person: /\b[A-Z][a-z'’-]+(?:\s+(?:(?:de|van|von|der|da|di|la|le|of)\s+)?[A-Z][a-z'’-]+)*\b/g,
  place: /\b[A-Z][a-z'’-]+(?:\s+(?:(?:of|the|de)\s+)?[A-Z][a-z'’-]+)*\b/g,
  entity: /\b[A-Z][\w'’-]*(?:\s+(?:(?:of|the|and|de|for)\s+)?[A-Z][\w'’-]*)*\b/g,
};

/** Spans of `text` that look like an answer of this type; empty for "sentence" questions. */
export function typedSpans(text: string, type: AnswerType): Span[] {
  if (type === "sentence") return [];
  const out: Span[] = [];
  for (const m of text.matchAll(PATTERNS[type])) if (m[0].trim()) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}
