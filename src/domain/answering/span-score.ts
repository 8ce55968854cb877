// How likely each candidate span of the chosen sentence is the answer: shape, type and where the question's words sit around it.
import { answerType } from "./answer-type.ts";
import { followsAuxiliary, type Candidate } from "./span-candidates.ts";
import { sigmoid } from "../retrieval/fusion.ts";
import type { Language, Tagger } from "./language.ts";
import type { Span } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";
import { questionVerbs, slotFits, type QuestionVerb } from "./verb-slots.ts";
import { kinship, plainWords } from "./word-sense.ts";

/** What a candidate answer span's score rests on (each in [0, 1]); the weights are SPAN. */
export interface SpanFeatures {
  /** 1 / (1 + words between the span and the nearest question word). */
  near: number;
  /** Question terms around the span, each weighted by its rarity and by 1 / its distance in words, over all those in the sentence. */
  align: number;
  /** Weighted share of the question terms before its wh-word ("based on [what attribute]") among the 5 words left of the span. */
  prefix: number;
  /**
   * Weighted share of the question terms after its wh-phrase among the 5 words left / right of the span, by question
   * form (questionShape): a subject question's terms follow the answer, an inverted one's precede it, a copula's either
   * (a subject question's left side was dropped: no cross-validated gain).
   */
  subjRight: number;
  invLeft: number;
  invRight: number;
  copLeft: number;
  copRight: number;
  /** A word of the question's wh-phrase ("what German poet") is in the span or within 2 words of it. */
  head: number;
  /** Word meaning: the highest similarity of a wh-phrase head word to a span word the question does not say ("what team" ~ "Broncos"; 0 without word vectors). */
  sense: number;
  /** Paraphrase: question terms the sentence lacks, each by its best similarity (at least 0.5) to a word within 5 of the span, weighted, over all question terms. */
  soft: number;
  /** Part of speech (the injected Tagger, language.ts): share of the span's words tagged as proper nouns. */
  propn: number;
  /** It ends at its head, not at a modifier: its last word is a noun, a proper noun or a number, or it is a predicate adjective ("is [green]"). */
  nounEnd: number;
  /** A word of the wh-phrase follows right after the span ("[four] lighthouses" for "how many lighthouses"). */
  headNext: number;
  /** The span has the pattern of the asked kind (Candidate.typed). */
  typed: number;
  /** It starts with a capital or a digit (a name, a number), unless it is one word opening the sentence. */
  named: number;
  /** Weighted share of the sentence's question terms in the span's clause (between commas, semicolons, brackets, "which", "who", "while"). */
  clause: number;
  /** It starts with a digit, a currency sign or a number word. */
  numeric: number;
  /** One word, two words, four to six words (three or longer: none of them; a separate three-word flag had no cross-validated gain). */
  len1: number;
  len2: number;
  len4: number;
  /** It opens the sentence (after at most an article): the subject. */
  first: number;
  /** A capitalized span right after a lowercase role noun ("engineer [Ingrid Solberg]", "nominee [Ada Berg]"): an apposed name. */
  titled: number;
  /** A capitalized span ending in a word that heads names of things, not people ("Harbour Prize", "Nordic Cup", "Royal Church"). */
  thing: number;
  /** Syntax by position (verb-slots.ts): it fills the slot the question asks of the sentence verb matching the question's verb ("what did Gaga sing": Gaga performed [X]). */
  slotAsked: number;
  /** It fills that verb's other slot (the subject when the object is asked, and the reverse). */
  slotOther: number;
}

export interface SpanCandidate {
  span: Span;
  features: SpanFeatures;
  /** P(this span is the answer) under SPAN. */
  score: number;
}

/** Logistic weights over SpanFeatures; fitted by eval/answers/tune.ts --fit-spans on the tune split. */
export const SPAN: Record<keyof SpanFeatures | "bias", number> = {
  near: 0.29,
  align: 0.85,
  prefix: 0.8,
  subjRight: 0.02,
  invLeft: 0.39,
  invRight: -0.15,
  copLeft: 0.93,
  copRight: 0.14,
  head: 1.4,
  sense: 0.74,
  soft: 0.36,
  propn: 0.17,
  nounEnd: 0.6,
  headNext: 0.39,
  typed: 1.44,
  named: 0.54,
  clause: 0.87,
  numeric: 0.21,
  len1: -0.4,
  len2: 0.32,
  len4: 0.31,
  first: -0.11,
  titled: 0.57,
  thing: -1.32,
  slotAsked: 0.56,
  slotOther: -0.86,
  bias: -4.51,
};

const THING_HEADS = new Set(
  "award awards bowl game games cup league championship church university college school company corporation party empire kingdom republic war battle act treaty council court army navy committee association society museum library bank station airport bridge hotel street road river sea ocean lake mountain island city county state province valley basin forest theory law language prize series show festival".split(
    " ",
  ),
);
const FUNCTION = new Set(
  "a an the this that these those of in on at by for with from to into and or but as is are was were be been has have had his her their its our my your some any each no not also very".split(
    " ",
  ),
);
const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;
const WH = new Set(["what", "which", "who", "whom", "whose", "when", "where", "how", "why"]);
const BE = new Set(["is", "are", "was", "were", "am", "be", "been"]);
const AUX = new Set(
  "is are was were am be been do does did has have had can could will would shall should may might must".split(" "),
);
const NUMBER_WORD =
  /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundreds?|thousands?|millions?|billions?)\b/i;

export type QuestionForm = "subject" | "inverted" | "copula";

/**
 * The question's parts: terms before the wh-word (`prefix`), the wh-phrase's head nouns ("what German poet": german,
 * poet), the terms after it (`rest`) and its form, which says where `rest` sits around the answer in a declarative
 * sentence: a verb after the wh-phrase = a subject question ("[X] agreed to ..."), do/have/a modal = inverted ("what did
 * Gaga sing" ~ "Gaga sang [X]"), a form of "be" = a copula ("who was the leader": either side).
 */
export function questionShape(question: string): {
  prefix: Set<string>;
  head: Set<string>;
  headWords: string[];
  rest: Set<string>;
  form: QuestionForm;
} {
  const words = [...question.matchAll(WORD)].map((m) => m[0].toLowerCase());
  let wh = words.findIndex((w) => WH.has(w));
  if (wh < 0) wh = words.length;
  let next = wh + 1;
  if (words[wh] === "how") next++; // how many, how long
  if (/^(?:kind|type|sort|form|name|group)s?$/.test(words[next] ?? "") && words[next + 1] === "of")
    next += words[next + 2] === "the" ? 3 : 2; // "what kind of device": device
  const headStart = next;
  if (words[wh] === "what" || words[wh] === "which" || words[wh] === "how")
    while (
      next < words.length &&
      !AUX.has(words[next]!) &&
      tokenize(words[next]!).length > 0 &&
      !/.{3}ed$/.test(words[next]!) &&
      next - headStart < 3
    )
      next++; // the head noun phrase, up to a verb
  const stems = (ws: readonly string[]) => new Set(ws.flatMap((w) => tokenize(w)));
  const verb = words[next];
  const form: QuestionForm = verb === undefined || !AUX.has(verb) ? "subject" : BE.has(verb) ? "copula" : "inverted";
  const headWords = words
    .slice(headStart, next)
    .filter((w) => !FUNCTION.has(w))
    .flatMap(plainWords);
  return {
    prefix: stems(words.slice(0, wh)),
    head: stems(words.slice(headStart, next)),
    headWords,
    rest: stems(words.slice(next)),
    form,
  };
}

/** What span scoring reads from the question: derived once per question, since planAnswer scores several sentences. */
export interface AskedQuestion {
  text: string;
  shape: ReturnType<typeof questionShape>;
  whoAsked: boolean;
  /** The question's verbs and the slot each asks for (none without a tagger). */
  verbs: QuestionVerb[];
}

export function readQuestion(question: string, tag?: Tagger): AskedQuestion {
  return {
    text: question,
    shape: questionShape(question),
    whoAsked: answerType(question) === "person",
    verbs: tag ? questionVerbs(question, tag(question)) : [],
  };
}

/** Scores `candidates` of sentence `text` for the question (weights: idf of each question term); best first, ties the earlier. */
export function scoreSpans(
  text: string,
  candidates: readonly Candidate[],
  asked: AskedQuestion,
  weight: ReadonlyMap<string, number>,
  language: Language = {},
  weights: Record<string, number> = SPAN,
): SpanCandidate[] {
  const { similar } = language;
  if (candidates.length === 0) return [];
  const qTerms = new Set(weight.keys());
  const words = [...text.matchAll(WORD)].map((m) => {
    return {
      start: m.index,
      end: m.index + m[0].length,
      lower: m[0].toLowerCase(),
      terms: tokenize(m[0]).filter((t) => qTerms.has(t)),
    };
  });
  const { shape, whoAsked } = asked;
  const present = new Set(words.flatMap((w) => w.terms));
  let clause = 0; // clause index of each word: a new clause after punctuation or at a relative word
  const clauseOf = words.map((w, x) =>
    x > 0 &&
    (/[,;:()–—]/.test(text.slice(words[x - 1]!.end, w.start)) || /^(?:which|who|while|whereas|but)$/.test(w.lower))
      ? ++clause
      : clause,
  );
  const presentWeight = [...present].reduce((a, t) => a + (weight.get(t) ?? 0), 0);
  const share = (expected: ReadonlySet<string>, from: number, to: number) => {
    const all = [...expected].reduce((a, t) => a + (weight.get(t) ?? 0), 0);
    const seen = new Set(
      words.slice(Math.max(0, from), Math.max(0, to)).flatMap((w) => w.terms.filter((t) => expected.has(t))),
    );
    return all ? [...seen].reduce((a, t) => a + (weight.get(t) ?? 0), 0) / all : 0;
  };
  const absent = new Map<string, string>(); // question terms the sentence lacks, with the question's word for the word vectors
  if (similar)
    for (const m of asked.text.matchAll(WORD))
      for (const t of tokenize(m[0]))
        if (!present.has(t) && weight.has(t) && !shape.head.has(t)) absent.set(t, plainWords(m[0]).join(""));
  const allWeight = [...weight.values()].reduce((x, y) => x + y, 0);
  const tags = language.tag?.(text) ?? []; // only the few sentences whose spans are scored get tagged
  const slots = slotFits(text, tags, asked.verbs, similar);
  const out = candidates.map(({ span, typed }): SpanCandidate => {
    const pos = tags.filter((t) => t.start < span.end && t.end > span.start).map((t) => t.pos);
    const a = words.findIndex((w) => w.end > span.start);
    const after = words.findIndex((w) => w.start >= span.end);
    const b = (after < 0 ? words.length : after) - 1;
    const n = b - a + 1;
    const distance = new Map<string, number>(); // each question term outside the span: words to its nearest occurrence
    words.forEach((w, x) => {
      if (x >= a && x <= b) return;
      const d = x < a ? a - x : x - b;
      for (const t of w.terms) distance.set(t, Math.min(distance.get(t) ?? Infinity, d));
    });
    const gap = distance.size ? Math.min(...distance.values()) - 1 : words.length;
    const inner = text.slice(span.start, span.end);
    const restLeft = share(shape.rest, a - 5, a);
    const restRight = share(shape.rest, b + 1, b + 6);
    const slot = slots(span);
    const features: SpanFeatures = {
      near: 1 / (1 + gap),
      align: presentWeight ? [...distance].reduce((s, [t, d]) => s + (weight.get(t) ?? 0) / d, 0) / presentWeight : 0,
      prefix: share(shape.prefix, a - 5, a),
      subjRight: shape.form === "subject" ? restRight : 0,
      invLeft: shape.form === "inverted" ? restLeft : 0,
      invRight: shape.form === "inverted" ? restRight : 0,
      copLeft: shape.form === "copula" ? restLeft : 0,
      copRight: shape.form === "copula" ? restRight : 0,
      head: words.slice(Math.max(0, a - 2), b + 3).some((w) => w.terms.some((t) => shape.head.has(t))) ? 1 : 0,
      sense: kinship(
        shape.headWords,
        words
          .slice(a, b + 1)
          .filter((w) => w.terms.length === 0)
          .flatMap((w) => plainWords(w.lower)),
        similar,
      ),
      soft:
        allWeight && absent.size
          ? [...absent].reduce((acc, [t, q]) => {
              const s = kinship(
                [q],
                [...words.slice(Math.max(0, a - 5), a), ...words.slice(b + 1, b + 6)].flatMap((w) =>
                  plainWords(w.lower),
                ),
                similar,
              );
              return acc + (s >= 0.5 ? s * weight.get(t)! : 0);
            }, 0) / allWeight
          : 0,
      propn: pos.length ? pos.filter((p) => p === "PROPN").length / pos.length : 0,
      nounEnd:
        /^(?:NOUN|PROPN|NUM)$/.test(pos.at(-1) ?? "") ||
        (pos.length === 1 && pos[0] === "ADJ" && followsAuxiliary(tags, span.start))
          ? 1
          : 0,
      headNext: words.slice(b + 1, b + 3).some((w) => w.terms.some((t) => shape.head.has(t))) ? 1 : 0,
      typed: typed ? 1 : 0,
      named: /^[\p{Lu}\p{N}]/u.test(inner) && (a > 0 || b > a) ? 1 : 0, // one capitalized word opening the sentence is no evidence of a name
      clause: presentWeight
        ? [
            ...new Set(words.filter((w, x) => (x < a || x > b) && clauseOf[x] === clauseOf[a]).flatMap((w) => w.terms)),
          ].reduce((acc, t) => acc + (weight.get(t) ?? 0), 0) / presentWeight
        : 0,
      numeric: /^[\p{N}$£€]/u.test(inner) || NUMBER_WORD.test(inner) ? 1 : 0,
      len1: n === 1 ? 1 : 0,
      len2: n === 2 ? 1 : 0,
      len4: n >= 4 && n <= 6 ? 1 : 0,
      first: a === 0 || (a === 1 && /^(?:the|a|an)$/.test(words[0]!.lower)) ? 1 : 0,
      titled:
        whoAsked &&
        /^\p{Lu}/u.test(inner) &&
        a > 0 &&
        /^\p{Ll}+$/u.test(words[a - 1]!.lower) &&
        words[a - 1]!.lower === text.slice(words[a - 1]!.start, words[a - 1]!.end) &&
        !FUNCTION.has(words[a - 1]!.lower) &&
        !/(?:ed|ly)$/.test(words[a - 1]!.lower) &&
        /^\s+$/.test(text.slice(words[a - 1]!.end, span.start))
          ? 1
          : 0,
      thing: whoAsked && /^\p{Lu}/u.test(inner) && THING_HEADS.has(words[b]!.lower) ? 1 : 0,
      slotAsked: slot.asked,
      slotOther: slot.other,
    };
    const z = (Object.keys(features) as (keyof SpanFeatures)[]).reduce(
      (acc, k) => acc + (weights[k] ?? 0) * features[k],
      weights.bias ?? 0,
    );
    return { span, features, score: sigmoid(z) };
  });
  return out.sort((x, y) => y.score - x.score || x.span.start - y.span.start);
}
