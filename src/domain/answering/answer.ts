// Extractive answering: score evidence sentences against the question, pick the best, cut its most likely answer span.
import { namesFound, personal, RIVAL_SHARE, standsAlone } from "./answer-confidence.ts";
import { speakerOther } from "./attribution.ts";
import { CHECKED_KINDS, fitsTense, hasAskedKind, namedByPosition, saidThen } from "./answer-kind.ts";
import { answerType, typedSpans, type AnswerType } from "./answer-type.ts";
import { sigmoid } from "../retrieval/fusion.ts";
import { splitSentences, type Span } from "../text/sentences.ts";
import { candidateSpans } from "./span-candidates.ts";
import { scoreSentences, SENTENCE, type SentenceFeatures } from "./sentence-score.ts";
import { readQuestion, scoreSpans, SPAN, type SpanCandidate } from "./span-score.ts";
import { tokenize } from "../text/tokenize.ts";
import type { Language } from "./language.ts";

export { SPAN, type SpanCandidate, type SpanFeatures } from "./span-score.ts";
export { SENTENCE, type SentenceFeatures } from "./sentence-score.ts";

export interface EvidenceChunk {
  key: number;
  text: string;
  /** Calibrated retrieval score in [0, 1]. */
  score: number;
  /** It has an event time of its own (occurred_at given, a session's date, a dated line): when its words were said is known. */
  dated?: boolean | undefined;
}

export interface ScoredSentence {
  key: number;
  span: Span;
  text: string;
  /** Its SENTENCE score. */
  score: number;
  /** What the score rests on: the weighted share of question terms it holds (overlap), its chunk's score, a typed span, ... */
  features: SentenceFeatures;
}

/** What the confidence is computed from (all in [0, 1]); the weights are CONFIDENCE. */
export interface ConfidenceFeatures {
  /** The best sentence's weighted question-term overlap. */
  overlap: number;
  /** The best sentence's chunk retrieval score. */
  chunk: number;
  /** 1 when the best sentence holds a span of the asked type. */
  typed: number;
  /** Share of the question's names (capitalized words after the first) found in the best sentence's chunk (also as a word's start: "Amazon" ~ "Amazonian"). */
  names: number;
  /** The best sentence's plain share of question terms (unweighted). */
  terms: number;
  /** P(answer span) of the best candidate span (0 when there is none). */
  span: number;
  /** How far the best sentence leads the best one from another chunk: 1 - its score / the best score (1 with no rival, 0 when nothing scores). */
  margin: number;
  /** 1 when the answer is the whole sentence (no span: a why/how question, no candidate, or a "what" span below SPAN_MIN). */
  whole: number;
  /** 1 / the number of the 8 best sentences scoring at least 0.8 x the best score (answer-confidence.ts): near-ties make the choice a guess. */
  alone: number;
  /** min(1, 3 / the answer's words): right means token F1 >= 0.5 against a gold answer, which is short (issue 40). */
  brief: number;
  /** 1 when the best sentence speaks in the first or second person (answer-confidence.ts personal). */
  personal: number;
  /** 1 when the question names another participant and the best sentence is its speaker's own first-person statement (attribution.ts). */
  speakerOther: number;
  /** 1 when a when-question is answered by a time expression: dates are stated or resolved, so the answer is rarely a guess. */
  dated: number;
  /** 1 when a when-question is answered by when the sentence was said (AnswerPlan.saidThen): it names no time of its own. */
  said: number;
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
  /** The candidate spans of selected[0], best first (for a checked kind, only those of the asked kind). */
  spans: SpanCandidate[];
  /** The question asks for a checked kind (person, place, date, number) and no span of that kind was found: confidence 0, never given. */
  kindMissing: boolean;
  /**
   * A when-question whose best sentence, in dated evidence, names no time but reports the event as of when it was said
   * ("I just launched an ad campaign"): the answer is that time (the service words it), not a span.
   */
  saidThen: boolean;
}

/**
 * Confidence (P(right)) below this is not an answer (eval/README.md "Grounded answers"): the lowest floor at which the tune split's
 * cross-validated LoCoMo adversarial questions still abstain >= 80% (eval/answers/README.md, sixth round).
 */
export const ANSWER_THRESHOLD = 0.14;
const HEADING = /^#{1,6}\s/;
/** Logistic weights over ConfidenceFeatures for P(token F1 >= 0.5); fitted by eval/answers/tune.ts --fit on the tune split (eval/answers/README.md). */
export const CONFIDENCE = {
  overlap: 0.33,
  chunk: 1.07,
  typed: 0.24,
  names: 1.46,
  terms: 0.77,
  span: 2.91,
  margin: 0.76,
  whole: -1.17,
  alone: 0.64,
  personal: -0.65,
  brief: 0.81,
  dated: 1.91,
  said: 0.68,
  speakerOther: -1.47,
  bias: -5.51,
};
/**
 * The answer sentence is the one of the JOINT_TOP best whose score x P(its best span)^JOINT_SPAN is highest: a sentence
 * with a likely answer span wins a near-tie (the gold is in the runner-up for 10% of tune questions). Chosen on the tune split.
 */
const JOINT_TOP = 3;
const JOINT_SPAN = 0.1;
/** A "what" question whose best span is less likely than this gets the whole sentence (a sure partial match beats a likely miss). */
export const SPAN_MIN = 0.05;
/** The kinds a name answers (a capital by position is no name for them). */
const NAMED_KINDS: ReadonlySet<AnswerType> = new Set(["person", "place"]);

/**
 * `language`: word vectors and a part-of-speech tagger for the span features that use them (language.ts); without them those features are 0.
 * `spanWeights`, `sentenceWeights`: SPAN and SENTENCE unless the eval cross-validates other weights end to end (eval/answers/tune.ts).
 */
export function planAnswer(
  question: string,
  chunks: readonly EvidenceChunk[],
  keep = 8,
  language: Language = {},
  spanWeights: Record<string, number> = SPAN,
  sentenceWeights: Readonly<Record<string, number>> = SENTENCE,
): AnswerPlan {
  const type = answerType(question);
  const qTerms = new Set(tokenize(question));
  const seen = new Map<string, boolean>();
  const inQuestion = (w: string) =>
    seen.get(w) ??
    (seen.set(
      w,
      tokenize(w).some((t) => qTerms.has(t)),
    ),
    seen.get(w)!); // memoized: every sentence is cut into phrases
  const sentences: { chunk: EvidenceChunk; index: number; span: Span; text: string; terms: Set<string> }[] = [];
  chunks.forEach((chunk, index) => {
    for (const span of sentencesOf(chunk.text)) {
      const text = chunk.text.slice(span.start, span.end);
      if (HEADING.test(text)) continue; // a heading names a topic; it states nothing that answers
      sentences.push({ chunk, index, span, text, terms: new Set(tokenize(text)) });
    }
  });
  const weight = termWeights(
    qTerms,
    sentences.map((s) => s.terms),
  );
  const typed = sentences.map((s) => answerSpans(s.text, type, qTerms, inQuestion).length > 0);
  const scored = scoreSentences(
    question,
    sentences.map((s, i) => ({
      chunk: s.index,
      chunkScore: s.chunk.score,
      text: s.text,
      terms: s.terms,
      typed: typed[i]!,
    })),
    weight,
    sentenceWeights,
  );
  const ranked: ScoredSentence[] = sentences.map(({ chunk, span, text }, i) => ({
    key: chunk.key,
    span,
    text,
    ...scored[i]!,
  }));
  ranked.sort((a, b) => b.score - a.score || a.key - b.key || a.span.start - b.span.start);
  const asked = readQuestion(question, language.tag);
  const checked = CHECKED_KINDS.has(type);
  // A span of the wrong kind is never the answer ("March" for "who"): for a checked kind only spans of that kind compete.
  const spansOf = (s: ScoredSentence) =>
    scoreSpans(
      s.text,
      candidateSpans(s.text, type, qTerms, inQuestion, language.tag),
      asked,
      weight,
      language,
      spanWeights,
    ).filter(
      (c) =>
        !checked ||
        (hasAskedKind(s.text.slice(c.span.start, c.span.end), type) &&
          (type !== "date" || fitsTense(question, s.text.slice(c.span.start, c.span.end))) &&
          (!NAMED_KINDS.has(type) || namedByPosition(s.text, c.span, language.readsAsName))),
    );
  // For a checked kind only a rival of the best sentence may give the answer: one far below it is rarely the answer's
  // sentence, and taking it for a span of the kind ("Paleoclimatologists" for "from where") answers wrong with confidence.
  const rivals =
    checked && ranked[0]
      ? ranked.slice(0, JOINT_TOP).filter((s) => s.score >= RIVAL_SHARE * ranked[0]!.score)
      : ranked.slice(0, JOINT_TOP);
  const joint = rivals.map((s) => ({ s, spans: spansOf(s) }));
  const worth = (c: (typeof joint)[number]) =>
    checked && c.spans.length === 0 ? -1 : c.s.score * Math.max(0.01, c.spans[0]?.score ?? 0) ** JOINT_SPAN; // a sentence without a span is not ruled out, unless the kind is checked
  const chosen = joint.reduce<(typeof joint)[number] | undefined>(
    (a, c) => (a === undefined || worth(c) > worth(a) ? c : a),
    undefined,
  );
  if (chosen) ranked.unshift(...ranked.splice(ranked.indexOf(chosen.s), 1));
  const best = ranked[0];
  const none = {
    overlap: 0,
    chunk: 0,
    typed: 0,
    names: 0,
    terms: 0,
    span: 0,
    margin: 0,
    whole: 0,
    alone: 0,
    brief: 0,
    personal: 0,
    speakerOther: 0,
    dated: 0,
    said: 0,
  };
  if (!best)
    return {
      answerType: type,
      ranked: [],
      selected: [],
      answer: null,
      confidence: 0,
      features: none,
      spans: [],
      kindMissing: false,
      saidThen: false,
    };
  const second = ranked.find((s) => s !== best && s.score >= best.score * 0.9 && s.features.overlap > 0);
  const spans = chosen!.spans;
  const top = spans[0];
  const bestTerms = new Set(tokenize(best.text));
  const rival = ranked.find((s) => s.key !== best.key);
  const answer = top && (type !== "entity" || top.score >= SPAN_MIN) ? top.span : null;
  const bestEvidence = chunks.find((c) => c.key === best.key)!;
  const bestChunk = bestEvidence.text;
  // No time in the sentences that rival the best: a dated report answers with when it was said ("I just launched ...").
  const said =
    type === "date" &&
    !answer &&
    bestEvidence.dated === true &&
    best.features.overlap > 0 &&
    saidThen(question, best.text);
  const features: ConfidenceFeatures = {
    overlap: best.features.overlap,
    chunk: best.features.chunk,
    typed: best.features.typed,
    names: namesFound(question, bestChunk),
    terms: qTerms.size ? [...qTerms].filter((t) => bestTerms.has(t)).length / qTerms.size : 0,
    span: top?.score ?? 0,
    margin: best.score <= 0 ? 0 : rival ? Math.max(0, Math.min(1, 1 - Math.max(0, rival.score) / best.score)) : 1, // 0 when the joint choice passed over a higher-scored sentence
    whole: answer || said ? 0 : 1,
    alone: standsAlone(
      best.score,
      ranked.map((s) => s.score),
    ),
    personal: personal(best.text),
    brief: said
      ? 1 // a day, in a few words
      : Math.min(1, 3 / Math.max(1, tokenize(answer ? best.text.slice(answer.start, answer.end) : best.text).length)),
    dated: type === "date" && answer ? 1 : 0,
    said: said ? 1 : 0,
    speakerOther: speakerOther(
      question,
      bestChunk,
      best.span.start,
      best.text,
      chunks.map((c) => c.text),
    ),
  };
  const { bias, ...w } = CONFIDENCE;
  const kindMissing = checked && !answer && !said;
  // Confidence 0 is no answer, withheld at any floor: no span of the asked kind, or a sentence holding none of the question's terms (nothing anchors it).
  const confidence =
    kindMissing || features.terms === 0
      ? 0
      : sigmoid(bias + (Object.keys(w) as (keyof typeof w)[]).reduce((z, k) => z + w[k] * features[k], 0));
  return {
    answerType: type,
    ranked: ranked.slice(0, keep),
    selected: second && !answer && !said ? [best, second] : [best],
    answer,
    confidence,
    features,
    spans,
    kindMissing,
    saidThen: said,
  };
}

/** Sentences of a chunk, re-joined where the splitter cut after an initial ("Y. pestis", "John F. Kennedy") or before a lowercase word. */
function sentencesOf(text: string): Span[] {
  const out: Span[] = [];
  for (const s of splitSentences(text)) {
    const prev = out.at(-1);
    if (
      prev &&
      (/(?:^|[\s(])\p{L}\.$/u.test(text.slice(prev.start, prev.end)) || /^\p{Ll}/u.test(text.slice(s.start, s.end)))
    )
      prev.end = s.end;
    else out.push({ ...s });
  }
  return out;
}

/** Question-term weights: idf over the evidence sentences, so a term every sentence shares counts little and an absent one a lot. */
function termWeights(qTerms: ReadonlySet<string>, sentences: readonly ReadonlySet<string>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of qTerms)
    out.set(t, Math.log(1 + (sentences.length + 1) / (sentences.filter((s) => s.has(t)).length + 0.5)));
  return out;
}

/** Typed spans that do not merely repeat the question. */
function answerSpans(
  text: string,
  type: AnswerType,
  qTerms: ReadonlySet<string>,
  inQuestion: (word: string) => boolean,
): Span[] {
  return typedSpans(text, type, inQuestion).filter((s) =>
    tokenize(text.slice(s.start, s.end)).some((t) => !qTerms.has(t)),
  );
}
