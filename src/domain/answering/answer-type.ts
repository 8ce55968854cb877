// What kind of answer a question asks for, and the spans of a sentence that could be one.
import { phraseSpans } from "./phrases.ts";
import type { Span } from "../text/sentences.ts";

export type AnswerType = "person" | "date" | "number" | "place" | "entity" | "sentence";

// Nouns that, after "what"/"which" (and up to two modifiers), name the kind of answer: "what German poet" asks for a person.
const DATE_NOUNS = "year|date|day|month|century|decade";
const NUMBER_NOUNS =
  "number|percentage|percent|amount|proportion|fraction|population|temperature|score|speed|rate|distance|length|height|weight|cost|price|age|size";
const PERSON_NOUNS =
  "person|man|woman|player|quarterback|coach|scientist|researcher|inventor|author|writer|poet|artist|actor|actress|singer|musician|king|queen|emperor|president|leader|minister|pope|theologian|philosopher|engineer|physicist|chemist|architect|composer|founder|director";
const PLACE_NOUNS =
  "city|country|state|place|region|continent|town|county|area|location|island|river|colony|province|street|neighbou?rhood|site|nation|village|district|territory|ocean|sea|mountain|stadium|venue";
// "what German poet", and the copula's "what was the final score", "what is the name of the leader": the noun names the kind.
const kindOf = (nouns: string) =>
  new RegExp(
    `^(?:what|which)\\s+(?:(?:is|was|are|were)\\s+(?:the|a|an)\\s+)?(?:[\\w'-]+\\s+){0,2}?(?:(?:last\\s+|first\\s+|full\\s+)?names?\\s+of\\s+(?:the|a|an)\\s+(?:[\\w'-]+\\s+){0,2}?)?(?:${nouns})s?\\b`,
  );
// Tested on the question from its first wh-word on: a later clause ("who led them when ...") does not decide the kind.
const ASKS = {
  date: new RegExp(`^when\\b|${kindOf(DATE_NOUNS).source}|^what time\\b`),
  number: new RegExp(
    `^how (?:many|much|long|old|far|large|big|tall|wide|deep|high|heavy|fast|often)\\b|${kindOf(NUMBER_NOUNS).source}`,
  ),
  person: new RegExp(`^who(?:m|se)?\\b|${kindOf(PERSON_NOUNS).source}`),
  place: new RegExp(`^where\\b|${kindOf(PLACE_NOUNS).source}`),
};
const WH_WORD = /\b(?:what|which|who|whom|whose|when|where|how|why)\b/;

export function answerType(question: string): AnswerType {
  const lower = question.toLowerCase();
  const q = lower.slice(Math.max(0, lower.search(WH_WORD)));
  if (ASKS.date.test(q)) return "date";
  if (ASKS.number.test(q)) return "number";
  if (ASKS.person.test(q)) return "person";
  if (ASKS.place.test(q)) return "place";
  if (/^(?:what|which)\b/.test(q)) return "entity"; // "what"/"which" ask for a thing: a name or a noun phrase
  return "sentence"; // why, how, yes/no: the evidence sentence itself
}

const MONTH =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
// Names in any script's letters: a capital, then lowercase letters (not an ASCII word boundary, which stops at "è").
// Each later part opens with a capital or a separator, so a failed match cannot re-split a run of letters (no exponential backtracking).
const NAME_WORD = "(?=\\p{Lu}['’-]?\\p{L})\\p{Lu}\\p{Ll}*(?:(?:['’-]\\p{Lu}?|\\p{Lu})\\p{Ll}+)*"; // "Maizière", "McDonald", "O'Brien", "Jean-Luc"
const INITIALS = "(?:\\p{Lu}\\.\\s+)*";
const NAME_START = "(?<![\\p{L}\\p{N}])";
const NAME_END = "(?![\\p{L}\\p{N}])";
const PATTERNS: Record<Exclude<AnswerType, "sentence" | "entity">, RegExp> = {
  date: new RegExp(
    `\\b(?:\\d{1,2}\\s+${MONTH}(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{4}|(?:early |late |mid-?)?\\d{4}s?|\\d{1,2}(?:st|nd|rd|th) century|\\d{4}-\\d{2}-\\d{2}|(?:[Ll]ast|[Nn]ext|[Tt]his) (?:week|month|year|weekend|\\w+day)|[Yy]esterday|[Tt]oday|[Tt]onight|[Tt]omorrow|(?:[Aa]n?|[Oo]ne|[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|[Ee]ight|[Nn]ine|[Tt]en|\\d+) (?:days?|weeks?|weekends?|months?|years?) ago)\\b`,
    "g",
  ),
  number:
    /\b\d{1,2}:\d{2}\b|(?<!\p{L}[-–])(?:[$£€]\s?)?\b\d[\d,]*(?:\.\d+)?(?:–\d[\d,]*)?(?![-–]\p{L})(?:%|\s?(?:percent|million|billion|thousand|hundred|km|miles|years?|days?|hours?|minutes?|seconds?|people|times)\b|(?:m|bn)\b|\b)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|(?:hundred|thousand|million|billion)s?)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|billion))*\b/giu, // "3:08" before "3"; "19.3%" keeps its sign; a score or range "20–18" is one; no "4" of "MPEG-4" or "24" of "24-hour"
  person: new RegExp(
    `${NAME_START}${INITIALS}${NAME_WORD}(?:\\s+(?:(?:de|van|von|der|da|di|la|le|of)\\s+)?${INITIALS}${NAME_WORD})*${NAME_END}`,
    "gu",
  ), // "Lothar de Maizière", "Nicholas E. Golovin"
  place: new RegExp(`${NAME_START}${NAME_WORD}(?:\\s+(?:(?:of|the|de)\\s+)?${NAME_WORD})*${NAME_END}`, "gu"),
};

/** Spans of `text` that look like an answer of this type; "entity" = noun-phrase-like runs, "sentence" = none. */
export function typedSpans(
  text: string,
  type: AnswerType,
  inQuestion: (word: string) => boolean = () => false,
): Span[] {
  if (type === "sentence") return [];
  if (type === "entity") return phraseSpans(text, inQuestion);
  const out: Span[] = [];
  for (const m of text.matchAll(PATTERNS[type]))
    if (m[0].trim()) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}
