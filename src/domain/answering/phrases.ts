// Noun-phrase-like spans of a sentence without a parser: runs of words between function words, punctuation and case changes.
import type { Span } from "../text/sentences.ts";

/** Words that end a phrase (articles, prepositions, conjunctions, auxiliaries, pronouns): phrases are the runs between them. */
const FUNCTION_WORDS = new Set(
  "a an the this that these those its his her their our your my some any each every no not of in on at by for with from to into onto over under about after before during between among through against without within across along around behind beyond near since until upon via per than as and or but nor so yet because although though while whereas if when where which who whom whose what is are was were be been being am has have had do does did will would shall should can could may might must it he she they we i you him them us me also very just only more most such there here then both either neither".split(
    " ",
  ),
);
const AUXILIARIES = new Set(
  "is are was were be been being am has have had will would can could shall should may might must do does did".split(
    " ",
  ),
);
const DETERMINERS = new Set(["the", "a", "an", "his", "her", "their", "its", "our", "my", "your"]);
const NOT_ADVERBS = new Set(["family", "assembly", "supply", "reply", "monopoly", "anomaly", "italy", "july"]);
const JOINERS = new Set(["of", "and", "the", "de", "for", "upon", "on", "&"]); // inside a capitalized name: "University of Paris", "Tyne and Wear"
const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;

/** Lowercase words that are rarely part of a noun phrase: adverbs in -ly, and verbs/adjectives by position (after an auxiliary, before an article). */
function verbLike(word: string, prev: string | undefined, next: string | undefined): boolean {
  return (
    (word.length >= 6 && word.endsWith("ly") && !NOT_ADVERBS.has(word)) ||
    (prev !== undefined && AUXILIARIES.has(prev)) ||
    (next !== undefined && DETERMINERS.has(next))
  );
}

/** Noun-phrase-like spans without a parser: maximal runs of words between function words, punctuation and lowercase question words. */
export function phraseSpans(text: string, inQuestion: (word: string) => boolean = () => false): Span[] {
  const words = [...text.matchAll(WORD)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    lower: m[0].toLowerCase(),
    cap: /^\p{Lu}/u.test(m[0]),
    num: /^\p{N}/u.test(m[0]),
  }));
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
    if (
      (FUNCTION_WORDS.has(w.lower) && !joins) ||
      /^(?:i|you|we|they|he|she|it|that|there)['’]/.test(w.lower) ||
      (!w.cap && inQuestion(w.lower))
    )
      return void flush(); // the answer is what the question does not say
    if (!w.cap && !w.num && verbLike(w.lower, words[i - 1]?.lower, words[i + 1]?.lower)) return void flush();
    if (
      prev &&
      (!/^\s+$/.test(gap) ||
        (prev.cap && !w.cap && !w.num && !JOINERS.has(w.lower)) ||
        (!prev.cap && !prev.num && !JOINERS.has(prev.lower) && w.cap))
    )
      flush(); // punctuation or a change of case ends a phrase
    run.push(w);
  });
  flush();
  return out;
}
