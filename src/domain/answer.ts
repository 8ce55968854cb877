// Extractive answering: score evidence sentences against the question, pick the best, cut its most likely answer span.
import { answerType, typedSpans, type AnswerType } from "./answer-type.ts";
import { sigmoid } from "./fusion.ts";
import { splitSentences, type Span } from "./sentences.ts";
import { tokenize } from "./tokenize.ts";

export interface EvidenceChunk {
  key: number;
  text: string;
  /** Calibrated retrieval score in [0, 1]. */
  score: number;
}

export interface ScoredSentence {
  key: number;
  span: Span;
  text: string;
  /** Share of the question's terms the sentence holds, each term weighted by its rarity among the evidence sentences. */
  overlap: number;
  chunkScore: number;
  typed: boolean;
  score: number;
}

/** What the confidence is computed from (all in [0, 1]); the weights are CONFIDENCE. */
export interface ConfidenceFeatures {
  /** The best sentence's weighted question-term overlap. */
  overlap: number;
  /** The best sentence's chunk retrieval score. */
  chunk: number;
  /** 1 when the best sentence holds a span of the asked type. */
  typed: number;
  /** Share of the question's names (capitalized words after the first) found in the best sentence's chunk. */
  names: number;
  /** The best sentence's plain share of question terms (unweighted). */
  terms: number;
  /** P(answer span) of the best candidate span (0 when there is none). */
  span: number;
  /** How far the best sentence leads the best one from another chunk: 1 - its score / the best score (1 with no rival, 0 when nothing scores). */
  margin: number;
}

/** What a candidate answer span's score rests on (each in [0, 1]); the weights are SPAN. */
export interface SpanFeatures {
  /** 1 / (1 + words between the span and the nearest question word). */
  near: number;
  /** Weighted share of the question terms expected before the answer (see questionSides) among the 5 words before the span. */
  before: number;
  /** The same for the terms expected after it, among the 5 words after the span. */
  after: number;
  /** Share of the span's words that the question already says. */
  repeats: number;
  /** A word of the question's wh-phrase ("what German poet") is in the span or within 2 words of it. */
  head: number;
  /** It starts with a capital or a digit (a name, a number), unless it is one word opening the sentence. */
  named: number;
  /** One lowercase word ending in -ed or -ing: likely a verb, rarely what "what" asks for. */
  verbish: number;
  /** Words in the span / 4, at most 1. */
  long: number;
  /** Enclosed in quotation marks. */
  quoted: number;
}

export interface SpanCandidate {
  span: Span;
  features: SpanFeatures;
  /** P(this span is the answer) under SPAN. */
  score: number;
}

export interface AnswerPlan {
  answerType: AnswerType;
  /** Best sentences first (at most `keep`). */
  ranked: ScoredSentence[];
  /** The sentences the answer rests on. */
  selected: ScoredSentence[];
  /** The best candidate span inside selected[0] (spans[0]), relative to its sentence text; null = the sentence is the answer. */
  answer: Span | null;
  confidence: number;
  features: ConfidenceFeatures;
  /** The candidate spans of selected[0], best first. */
  spans: SpanCandidate[];
}

/** Confidence below this is not an answer (README "Grounded answers"); chosen on LoCoMo/XQuAD, see eval/results. */
export const ANSWER_THRESHOLD = 0.5;
const HEADING = /^#{1,6}\s/;
const QUESTION_PENALTY = 0.5; // enough that a question wins only when no sentence states anything relevant
/** Logistic weights over ConfidenceFeatures; fitted by eval/answers/tune.ts on the tune split (eval/answers/README.md). */
export const CONFIDENCE = { overlap: 0.63, chunk: 0.48, typed: 0.03, names: 1.63, terms: 0.72, span: 1.66, margin: 3.38, bias: -3.49 };
/** Logistic weights over SpanFeatures; fitted by eval/answers/tune.ts on the tune split. */
export const SPAN = { near: 2.27, before: 1.76, after: 0.82, repeats: 0.41, head: 1.37, named: 0.81, verbish: -1.08, long: 0.74, quoted: 0.29, bias: -3.54 };
/** A "what" question whose best span is less likely than this gets the whole sentence (a sure partial match beats a likely miss). */
export const SPAN_MIN = 0.1;
const WORD = /[\p{L}\p{N}]+(?:['’.\-–/][\p{L}\p{N}]+)*/gu;

export function planAnswer(question: string, chunks: readonly EvidenceChunk[], keep = 8): AnswerPlan {
  const type = answerType(question);
  const qTerms = new Set(tokenize(question));
  const seen = new Map<string, boolean>();
  const inQuestion = (w: string) => seen.get(w) ?? (seen.set(w, tokenize(w).some((t) => qTerms.has(t))), seen.get(w)!); // memoized: every sentence is cut into phrases
  const sentences: { chunk: EvidenceChunk; span: Span; text: string; terms: Set<string> }[] = [];
  for (const chunk of chunks) {
    for (const span of sentencesOf(chunk.text)) {
      const text = chunk.text.slice(span.start, span.end);
      if (HEADING.test(text)) continue; // a heading names a topic; it states nothing that answers
      sentences.push({ chunk, span, text, terms: new Set(tokenize(text)) });
    }
  }
  const weight = termWeights(qTerms, sentences.map((s) => s.terms));
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const ranked: ScoredSentence[] = sentences.map(({ chunk, span, text, terms }) => {
    let hit = 0;
    for (const [t, w] of weight) if (terms.has(t)) hit += w;
    const overlap = total ? hit / total : 0;
    const typed = answerSpans(text, type, qTerms, inQuestion).length > 0;
    const asks = text.endsWith("?") ? QUESTION_PENALTY : 0; // a question echoes the words but states nothing
    return { key: chunk.key, span, text, overlap, chunkScore: chunk.score, typed, score: 0.7 * overlap + 0.3 * chunk.score + (typed ? 0.2 : 0) - asks }; // within a chunk the words decide; a typed span breaks near-ties
  });
  ranked.sort((a, b) => b.score - a.score || a.key - b.key || a.span.start - b.span.start);
  const best = ranked[0];
  const none = { overlap: 0, chunk: 0, typed: 0, names: 0, terms: 0, span: 0, margin: 0 };
  if (!best) return { answerType: type, ranked: [], selected: [], answer: null, confidence: 0, features: none, spans: [] };
  const second = ranked.find((s) => s !== best && s.score >= best.score * 0.9 && s.overlap > 0);
  const spans = spanCandidates(best.text, type, qTerms, inQuestion, weight, question);
  const top = spans[0];
  const bestTerms = new Set(tokenize(best.text));
  const rival = ranked.find((s) => s.key !== best.key);
  const features: ConfidenceFeatures = {
    overlap: best.overlap,
    chunk: best.chunkScore,
    typed: best.typed ? 1 : 0,
    names: namesFound(question, chunks.find((c) => c.key === best.key)!.text),
    terms: qTerms.size ? [...qTerms].filter((t) => bestTerms.has(t)).length / qTerms.size : 0,
    span: top?.score ?? 0,
    margin: best.score <= 0 ? 0 : rival ? Math.min(1, 1 - Math.max(0, rival.score) / best.score) : 1,
  };
  const { bias, ...w } = CONFIDENCE;
  const confidence = sigmoid(bias + (Object.keys(w) as (keyof typeof w)[]).reduce((z, k) => z + w[k] * features[k], 0));
  const answer = top && (type !== "entity" || top.score >= SPAN_MIN) ? top.span : null;
  return { answerType: type, ranked: ranked.slice(0, keep), selected: second && !answer ? [best, second] : [best], answer, confidence, features, spans };
}

/** Sentences of a chunk, re-joined where the splitter cut after an initial ("Y. pestis", "John F. Kennedy") or before a lowercase word. */
function sentencesOf(text: string): Span[] {
  const out: Span[] = [];
  for (const s of splitSentences(text)) {
    const prev = out.at(-1);
    if (prev && (/(?:^|[\s(])\p{L}\.$/u.test(text.slice(prev.start, prev.end)) || /^\p{Ll}/u.test(text.slice(s.start, s.end)))) prev.end = s.end;
    else out.push({ ...s });
  }
  return out;
}

/** Question-term weights: idf over the evidence sentences, so a term every sentence shares counts little and an absent one a lot. */
function termWeights(qTerms: ReadonlySet<string>, sentences: readonly ReadonlySet<string>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of qTerms) out.set(t, Math.log(1 + (sentences.length + 1) / (sentences.filter((s) => s.has(t)).length + 0.5)));
  return out;
}

/** Share of the question's names (capitalized words not opening it) that occur in `text`; 1 when it names nothing. */
function namesFound(question: string, text: string): number {
  const names = [...question.matchAll(WORD)].slice(1).filter((m) => /^\p{Lu}/u.test(m[0])).flatMap((m) => tokenize(m[0]));
  if (names.length === 0) return 1;
  const terms = new Set(tokenize(text));
  return names.filter((n) => terms.has(n)).length / names.length;
}

/** Typed spans that do not merely repeat the question. */
function answerSpans(text: string, type: AnswerType, qTerms: ReadonlySet<string>, inQuestion: (word: string) => boolean): Span[] {
  return typedSpans(text, type, inQuestion).filter((s) => tokenize(text.slice(s.start, s.end)).some((t) => !qTerms.has(t)));
}

const WH = new Set(["what", "which", "who", "whom", "whose", "when", "where", "how", "why"]);
const AUX = new Set("is are was were am be been do does did has have had can could will would shall should may might must".split(" "));

/**
 * Which question terms a declarative answer sentence puts before the answer and which after it. Terms before the
 * wh-phrase precede it ("based on [what attribute]"); after it, an auxiliary means an inverted question whose terms
 * precede the answer ("what did Gaga sing" ~ "Gaga sang [X]"), a verb a subject question whose terms follow it
 * ("[what company] agreed to ..." ~ "[X] agreed to ...").
 */
function questionSides(question: string): { before: Set<string>; after: Set<string>; head: Set<string> } {
  const words = [...question.matchAll(WORD)].map((m) => m[0].toLowerCase());
  let wh = words.findIndex((w) => WH.has(w));
  if (wh < 0) wh = words.length;
  let next = wh + 1;
  if (words[wh] === "how") next++; // how many, how long
  if (/^(?:kind|type|sort|form|name|group)s?$/.test(words[next] ?? "") && words[next + 1] === "of") next += words[next + 2] === "the" ? 3 : 2; // "what kind of device": device
  const headStart = next;
  if (words[wh] === "what" || words[wh] === "which" || words[wh] === "how") while (next < words.length && !AUX.has(words[next]!) && tokenize(words[next]!).length > 0 && !/.{3}ed$/.test(words[next]!) && next - headStart < 3) next++; // the head noun phrase, up to a verb
  const stems = (ws: readonly string[]) => new Set(ws.flatMap((w) => tokenize(w)));
  const inverted = next >= words.length || AUX.has(words[next]!);
  const head = stems(words.slice(headStart, next));
  return { before: stems([...words.slice(0, wh), ...(inverted ? words.slice(next) : [])]), after: inverted ? new Set() : stems(words.slice(next)), head };
}

/** The sentence's answer spans scored by SPAN, best first (ties: the earlier span). */
function spanCandidates(text: string, type: AnswerType, qTerms: ReadonlySet<string>, inQuestion: (word: string) => boolean, weight: ReadonlyMap<string, number>, question: string): SpanCandidate[] {
  const spans = answerSpans(text, type, qTerms, inQuestion);
  if (spans.length === 0) return [];
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, terms: tokenize(m[0]).filter((t) => qTerms.has(t)) }));
  const anchors = words.flatMap((w, i) => (w.terms.length ? [i] : []));
  const sides = questionSides(question);
  const share = (expected: ReadonlySet<string>, from: number, to: number) => {
    const all = [...expected].reduce((a, t) => a + (weight.get(t) ?? 0), 0);
    const seen = new Set(words.slice(Math.max(0, from), Math.max(0, to)).flatMap((w) => w.terms.filter((t) => expected.has(t))));
    return all ? [...seen].reduce((a, t) => a + (weight.get(t) ?? 0), 0) / all : 0;
  };
  const out = spans.map((span): SpanCandidate => {
    const a = words.findIndex((w) => w.end > span.start);
    const after = words.findIndex((w) => w.start >= span.end);
    const b = (after < 0 ? words.length : after) - 1;
    const outside = anchors.filter((x) => x < a || x > b); // question words inside the span count under `repeats`
    const gap = outside.length ? Math.min(...outside.map((x) => (x < a ? a - x : x - b))) : words.length;
    const inner = text.slice(span.start, span.end);
    const features: SpanFeatures = {
      near: 1 / (1 + gap),
      before: share(sides.before, a - 5, a),
      after: share(sides.after, b + 1, b + 6),
      repeats: words.slice(a, b + 1).filter((w) => w.terms.length > 0).length / Math.max(1, b - a + 1),
      head: words.slice(Math.max(0, a - 2), b + 3).some((w) => w.terms.some((t) => sides.head.has(t))) ? 1 : 0,
      named: /^[\p{Lu}\p{N}]/u.test(inner) && (a > 0 || b > a) ? 1 : 0, // one capitalized word opening the sentence is no evidence of a name
      verbish: /^\p{Ll}[\p{L}-]*(?:ed|ing)$/u.test(inner) ? 1 : 0,
      long: Math.min(1, (b - a + 1) / 4),
      quoted: /["“'‘]$/.test(text.slice(0, span.start)) && /^["”'’]/.test(text.slice(span.end)) ? 1 : 0,
    };
    const { bias, ...w } = SPAN;
    const z = (Object.keys(w) as (keyof typeof w)[]).reduce((acc, k) => acc + w[k] * features[k], bias);
    return { span, features, score: sigmoid(z) };
  });
  return out.sort((x, y) => y.score - x.score || x.span.start - y.span.start);
}
