// Extractive answering: score evidence sentences against the question, pick the best, cut the shortest typed span.
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
  overlap: number;
  chunkScore: number;
  typed: boolean;
  score: number;
}

export interface AnswerPlan {
  answerType: AnswerType;
  /** Best sentences first (at most `keep`). */
  ranked: ScoredSentence[];
  /** The sentences the answer rests on. */
  selected: ScoredSentence[];
  /** The shortest span inside selected[0] that answers, relative to its sentence text. */
  answer: Span | null;
  confidence: number;
}

/** Confidence below this is not an answer (README "Grounded answers"); chosen on LoCoMo/XQuAD, see eval/results. */
export const ANSWER_THRESHOLD = 0.5;
const HEADING = /^#{1,6}\s/;
const CONFIDENCE = { overlap: 4, chunk: 3, typed: 0.5, bias: -4 };

export function planAnswer(question: string, chunks: readonly EvidenceChunk[], keep = 8): AnswerPlan {
  const type = answerType(question);
  const qTerms = new Set(tokenize(question));
  const ranked: ScoredSentence[] = [];
  for (const chunk of chunks) {
    for (const span of splitSentences(chunk.text)) {
      const text = chunk.text.slice(span.start, span.end);
      if (HEADING.test(text)) continue; // a heading names a topic; it states nothing that answers
      const terms = new Set(tokenize(text));
      let hits = 0;
      for (const t of qTerms) if (terms.has(t)) hits++;
      const overlap = qTerms.size ? hits / qTerms.size : 0;
      const typed = answerSpans(text, type, qTerms).length > 0;
      ranked.push({ key: chunk.key, span, text, overlap, chunkScore: chunk.score, typed, score: 0.55 * overlap + 0.45 * chunk.score + (typed ? 0.1 : 0) });
    }
  }
  ranked.sort((a, b) => b.score - a.score || a.key - b.key || a.span.start - b.span.start);
  const best = ranked[0];
  if (!best) return { answerType: type, ranked: [], selected: [], answer: null, confidence: 0 };
  const confidence = sigmoid(CONFIDENCE.overlap * best.overlap + CONFIDENCE.chunk * best.chunkScore + (best.typed ? CONFIDENCE.typed : 0) + CONFIDENCE.bias);
  const second = ranked.find((s) => s !== best && s.score >= best.score * 0.9 && s.overlap > 0);
  const answer = shortestAnswer(best.text, type, qTerms);
  return { answerType: type, ranked: ranked.slice(0, keep), selected: second && !answer ? [best, second] : [best], answer, confidence };
}

/** Typed spans that do not merely repeat the question. */
function answerSpans(text: string, type: AnswerType, qTerms: ReadonlySet<string>): Span[] {
  return typedSpans(text, type).filter((s) => tokenize(text.slice(s.start, s.end)).some((t) => !qTerms.has(t)));
}

/** The typed span nearest to the question's words in the sentence (answers sit next to what the question mentions). */
function shortestAnswer(text: string, type: AnswerType, qTerms: ReadonlySet<string>): Span | null {
  const spans = answerSpans(text, type, qTerms);
  if (spans.length === 0) return null;
  const anchors: number[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) if (tokenize(m[0]).some((t) => qTerms.has(t))) anchors.push(m.index);
  const distance = (s: Span) => (anchors.length ? Math.min(...anchors.map((a) => (a < s.start ? s.start - a : a >= s.end ? a - s.end : 0))) : 0);
  return spans.reduce((best, s) => (distance(s) < distance(best) ? s : best));
}
