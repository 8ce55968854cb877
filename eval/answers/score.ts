// Answer metrics of one split at one threshold: XQuAD (SQuAD EM/F1, gold in the top cited span) and LoCoMo (containment, abstention).
import type { Outcome } from "./ask.ts";
import { containsNormalized, exactMatch, maxOver, tokenF1 } from "./squad.ts";
import type { AnswerQuestion } from "./types.ts";
import { absolutePeriod, compareToGold, goldPeriod } from "./gold-dates.ts";

export interface Row {
  q: AnswerQuestion;
  o: Outcome;
}

export type Metrics = Record<string, number>;

/** Answered at threshold t: what the service does with min_confidence t. */
export const answeredAt = (o: Outcome, t: number): boolean => o.evidence && o.confidence >= t;

const rate = (xs: readonly boolean[]): number => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);
const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/**
 * Right (what `confidence` estimates, issue 40): token F1 >= 0.5 against a gold answer; with no gold (LoCoMo category 5)
 * no answer is right. A when-answer resolved to a period (or stating one: "on or before 8 May 2023 (when it was said ...)")
 * against a dated gold is right when the periods are equal: its words ("7 May 2023 ('yesterday', said on 8 May 2023)")
 * state the date and where it came from, which F1 would count against it.
 */
export const RIGHT_F1 = 0.5;
export function isRight(r: Row): boolean {
  if (r.o.answer === null || r.q.golds.length === 0) return false;
  const t = temporalScores(r);
  if (t.dated && (r.o.resolved || absolutePeriod(r.o.answer))) return t.equal; // a day it states, resolved or as said
  return maxOver(tokenF1, r.o.answer, r.q.golds) >= RIGHT_F1;
}

export function xquadScores(r: Row): { em: number; f1: number; spanHit: boolean } {
  const answer = r.o.answer ?? "";
  return {
    em: maxOver(exactMatch, answer, r.q.golds),
    f1: maxOver(tokenF1, answer, r.q.golds),
    spanHit: r.q.golds.some((g) => r.o.spans[0]?.includes(g) ?? false),
  };
}

export function xquadMetrics(rows: readonly Row[], t: number): Metrics {
  const scored = rows.map((r) => ({ r, s: xquadScores(r), answered: answeredAt(r.o, t) }));
  const answered = scored.filter((x) => x.answered);
  return {
    n: rows.length,
    abstention: 1 - answered.length / rows.length,
    span_hit: rate(scored.map((x) => x.answered && x.s.spanHit)),
    em: mean(scored.map((x) => (x.answered ? x.s.em : 0))),
    f1: mean(scored.map((x) => (x.answered ? x.s.f1 : 0))),
    span_hit_answered: rate(answered.map((x) => x.s.spanHit)),
    em_answered: mean(answered.map((x) => x.s.em)),
    f1_answered: mean(answered.map((x) => x.s.f1)),
    // Diagnostic: the top citation comes from the paragraph that holds the answer (retrieval + sentence choice), abstention or not.
    top_cite_gold: rate(scored.map((x) => x.r.q.goldSources.includes(x.r.o.topSource ?? ""))),
  };
}

export function locomoScores(r: Row): { inSpans: boolean; inAnswer: boolean } {
  const g = r.q.golds[0] ?? "";
  return { inSpans: containsNormalized(r.o.spans.join(" \n "), g), inAnswer: containsNormalized(r.o.answer ?? "", g) };
}

/** A temporal answer against its gold date (eval/answers/gold-dates.ts): its resolved period, else a date it names. */
export function temporalScores(r: Row): { dated: boolean; equal: boolean; within: boolean } {
  const gold = r.q.group === "temporal" ? goldPeriod(r.q.golds[0] ?? "") : null;
  const answer = r.o.resolved ?? (r.o.answer === null ? null : absolutePeriod(r.o.answer));
  return { dated: gold !== null, ...compareToGold(answer, gold) };
}

export function locomoMetrics(rows: readonly Row[], t: number): Metrics {
  const answerable = rows.filter((r) => r.q.golds.length > 0);
  const adversarial = rows.filter((r) => r.q.golds.length === 0);
  const scored = answerable.map((r) => ({
    s: locomoScores(r),
    answered: answeredAt(r.o, t),
    evidence: r.q.goldSources.includes(r.o.topSource ?? ""),
  }));
  const answered = scored.filter((x) => x.answered);
  return {
    n_1_4: answerable.length,
    contained_spans: rate(scored.map((x) => x.answered && x.s.inSpans)),
    contained_answer: rate(scored.map((x) => x.answered && x.s.inAnswer)),
    contained_spans_answered: rate(answered.map((x) => x.s.inSpans)),
    false_abstention: 1 - answered.length / answerable.length,
    // The top citation is one of the question's evidence turns (answered or not): what the answerer can be held to.
    top_cite_evidence: rate(scored.map((x) => x.evidence)),
    top_cite_evidence_answered: rate(answered.map((x) => x.evidence)),
    extractable: rate(answerable.map((r) => r.q.extractable)),
    contained_spans_extractable: rate(
      scored.filter((_, i) => answerable[i]!.q.extractable).map((x) => x.answered && x.s.inSpans),
    ),
    ...temporalMetrics(rows, t),
    n_5: adversarial.length,
    correct_abstention_5: rate(adversarial.map((r) => !answeredAt(r.o, t))),
  };
}

/** Category 2 with a gold date: answered share, and of those answered, the share whose date equals (or lies in) the gold. */
function temporalMetrics(rows: readonly Row[], t: number): Metrics {
  const dated = rows.map((r) => ({ r, s: temporalScores(r) })).filter((x) => x.s.dated);
  const answered = dated.filter((x) => answeredAt(x.r.o, t));
  return {
    n_temporal_dated: dated.length,
    temporal_answered: rate(dated.map((x) => answeredAt(x.r.o, t))),
    temporal_date_equal_answered: rate(answered.map((x) => x.s.equal)),
    temporal_date_within_answered: rate(answered.map((x) => x.s.within)),
  };
}
