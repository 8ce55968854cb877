// What kind of answer a question asks for, and the spans of a sentence that could be one.
import type { Span } from "./sentences.ts";

export type AnswerType = "person" | "date" | "number" | "place" | "entity" | "sentence";

// Nouns that, after "what"/"which" (and up to two modifiers), name the kind of answer: "what German poet" asks for a person.
const DATE_NOUNS = "year|date|day|month|century|decade";
const NUMBER_NOUNS = "number|percentage|percent|amount|proportion|fraction|population|temperature|score|speed|rate|distance|length|height|weight|cost|price|age|size";
const PERSON_NOUNS = "person|man|woman|player|quarterback|coach|scientist|researcher|inventor|author|writer|poet|artist|actor|actress|singer|musician|king|queen|emperor|president|leader|minister|pope|theologian|philosopher|engineer|physicist|chemist|architect|composer|founder|director";
const PLACE_NOUNS = "city|country|state|place|region|continent|town|county|area|location|island|river|colony|province|street|neighbou?rhood|site|nation|village|district|territory|ocean|sea|mountain|stadium|venue";
const kindOf = (nouns: string) => new RegExp(`\\b(?:what|which)\\s+(?:[\\w'-]+\\s+){0,2}?(?:${nouns})s?\\b`);
const ASKS = {
  date: new RegExp(`\\bwhen\\b|${kindOf(DATE_NOUNS).source}|\\bwhat time\\b`),
  number: new RegExp(`\\bhow (?:many|much|long|old|far|large|big|tall|wide|deep|high|heavy|fast|often)\\b|${kindOf(NUMBER_NOUNS).source}`),
  person: new RegExp(`\\bwho(?:m|se)?\\b|${kindOf(PERSON_NOUNS).source}`),
  place: new RegExp(`\\bwhere\\b|${kindOf(PLACE_NOUNS).source}`),
};

export function answerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (ASKS.date.test(q)) return "date";
  if (ASKS.number.test(q)) return "number";
  if (ASKS.person.test(q)) return "person";
  if (ASKS.place.test(q)) return "place";
  if (/\b(?:what|which)\b/.test(q) && !/\bwhy\b/.test(q)) return "entity"; // "what"/"which" ask for a thing: a name or a noun phrase
  return "sentence"; // why, how, yes/no: the evidence sentence itself
}

const MONTH = "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const PATTERNS: Record<Exclude<AnswerType, "sentence" | "entity">, RegExp> = {
  date: new RegExp(
    `\\b(?:\\d{1,2}\\s+${MONTH}(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{4}|(?:early |late |mid-?)?\\d{4}s?|\\d{1,2}(?:st|nd|rd|th) century|\\d{4}-\\d{2}-\\d{2}|(?:last|next|this) (?:week|month|year|weekend|\\w+day))\\b`,
    "g",
  ),
  number: /(?:[$£€]\s?)?\b\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|million|billion|thousand|hundred|km|miles|years?|days?|hours?|minutes?|people|times)|m|bn)?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|billion))*\b/gi,
  person: /\b[A-Z][a-z'’-]+(?:\s+(?:(?:de|van|von|der|da|di|la|le|of)\s+)?[A-Z][a-z'’-]+)*\b/g,
  place: /\b[A-Z][a-z'’-]+(?:\s+(?:(?:of|the|de)\s+)?[A-Z][a-z'’-]+)*\b/g,
};

/** Spans of `text` that look like an answer of this type; "entity" = noun-phrase-like runs, "sentence" = none. */
export function typedSpans(text: string, type: AnswerType, inQuestion: (word: string) => boolean = () => false): Span[] {
  if (type === "sentence") return [];
  if (type === "entity") return phraseSpans(text, inQuestion);
  const out: Span[] = [];
  for (const m of text.matchAll(PATTERNS[type])) if (m[0].trim()) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** Words that end a phrase (articles, prepositions, conjunctions, auxiliaries, pronouns): phrases are the runs between them. */
const FUNCTION_WORDS = new Set(
  "a an the this that these those its his her their our your my some any each every no not of in on at by for with from to into onto over under about after before during between among through against without within across along around behind beyond near since until upon via per than as and or but nor so yet because although though while whereas if when where which who whom whose what is are was were be been being am has have had do does did will would shall should can could may might must it he she they we i you him them us me also very just only more most such there here then both either neither".split(" "),
);
const AUXILIARIES = new Set("is are was were be been being am has have had will would can could shall should may might must do does did".split(" "));
const DETERMINERS = new Set(["the", "a", "an", "his", "her", "their", "its", "our", "my", "your"]);
const NOT_ADVERBS = new Set(["family", "assembly", "supply", "reply", "monopoly", "anomaly", "italy", "july"]);
const JOINERS = new Set(["of", "and", "the", "de", "for", "upon", "on", "&"]); // inside a capitalized name: "University of Paris", "Tyne and Wear"
const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;

/** Lowercase words that are rarely part of a noun phrase: adverbs in -ly, and verbs/adjectives by position (after an auxiliary, before an article). */
function verbLike(word: string, prev: string | undefined, next: string | undefined): boolean {
  return (word.length >= 6 && word.endsWith("ly") && !NOT_ADVERBS.has(word)) || (prev !== undefined && AUXILIARIES.has(prev)) || (next !== undefined && DETERMINERS.has(next));
}

/** Noun-phrase-like spans without a parser: maximal runs of words between function words, punctuation and lowercase question words. */
export function phraseSpans(text: string, inQuestion: (word: string) => boolean = () => false): Span[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, lower: m[0].toLowerCase(), cap: /^\p{Lu}/u.test(m[0]), num: /^\p{N}/u.test(m[0]) }));
  const out: Span[] = [];
  let run: typeof words = [];
  const flush = () => {
    while (run.length && JOINERS.has(run.at(-1)!.lower)) run.pop();
    if (run.length) out.push({ start: run[0]!.start, end: run.at(-1)!.end });
    run = [];
  };
  words.forEach((w, i) => {
    const prev = run.at(-1);
    const gap = prev ? text.slice(prev.end, w.start) : "";
    const joins = JOINERS.has(w.lower) && !w.cap && prev?.cap === true && words[i + 1]?.cap === true;
    if ((FUNCTION_WORDS.has(w.lower) && !joins) || /^(?:i|you|we|they|he|she|it|that|there)['’]/.test(w.lower) || (!w.cap && inQuestion(w.lower))) return void flush(); // the answer is what the question does not say
    if (!w.cap && !w.num && verbLike(w.lower, words[i - 1]?.lower, words[i + 1]?.lower)) return void flush();
    if (prev && (!/^\s+$/.test(gap) || (prev.cap && !w.cap && !w.num && !JOINERS.has(w.lower)) || (!prev.cap && !prev.num && !JOINERS.has(prev.lower) && w.cap))) flush(); // punctuation or a change of case ends a phrase
    run.push(w);
  });
  flush();
  return out;
}
