// Whether `confidence` can be trusted (issue 40): a five-bin reliability table, ECE, the share right among confident answers, answer-type accuracy.
import { hasAskedKind, CHECKED_KINDS } from "../../src/domain/answering/answer-kind.ts";
import { answerType } from "../../src/domain/answering/answer-type.ts";
import { statInterval } from "../bootstrap.ts";
import { answeredAt, isRight, type Row } from "./score.ts";

export interface TrustBin {
  from: number;
  to: number;
  n: number;
  meanConfidence: number;
  right: number;
}

export interface Trust {
  /** Answers scored: every question with an answer at min_confidence 0 (what any floor would let through). */
  n: number;
  bins: TrustBin[];
  /** Sum over the five bins of (n_bin / n) x |share right - mean confidence|. */
  ece: number;
  /** 95% interval of the ECE resampling whole vaults (articles, conversations): how far the figure is from a target, in its noise. */
  eceInterval: [number, number];
  /** Answers with confidence >= 0.9: how many, and the share right. */
  confident: { n: number; right: number };
  /** Answered at the default threshold, of a checked kind (person, place, date, number): how many, and the share whose answer has the asked kind. */
  typed: { n: number; accuracy: number };
}

export const TRUST_EDGES = [0, 0.2, 0.4, 0.6, 0.8, 1];
export const CONFIDENT = 0.9;

/** Pure: bins (confidence, right) pairs on `edges` (the last bin holds 1) and gives the expected calibration error. */
export function reliability(
  pairs: readonly { confidence: number; right: boolean }[],
  edges: readonly number[] = TRUST_EDGES,
): { bins: TrustBin[]; ece: number } {
  const bins = edges.slice(0, -1).map((from, i) => ({ from, to: edges[i + 1]!, n: 0, sumC: 0, sumR: 0 }));
  for (const p of pairs) {
    const bin = bins.find((b) => p.confidence < b.to) ?? bins.at(-1)!;
    bin.n++;
    bin.sumC += p.confidence;
    bin.sumR += p.right ? 1 : 0;
  }
  const out = bins.map((b) => ({
    from: b.from,
    to: b.to,
    n: b.n,
    meanConfidence: b.n ? b.sumC / b.n : NaN,
    right: b.n ? b.sumR / b.n : NaN,
  }));
  const n = Math.max(1, pairs.length);
  return { bins: out, ece: out.reduce((s, b) => s + (b.n ? (b.n / n) * Math.abs(b.right - b.meanConfidence) : 0), 0) };
}

export function trust(rows: readonly Row[], threshold: number): Trust {
  const given = rows.filter((r) => r.o.evidence && r.o.answer !== null);
  const answers = given.map((r) => ({ confidence: r.o.confidence, right: isRight(r) }));
  const confident = answers.filter((a) => a.confidence >= CONFIDENT);
  const typed = rows.filter((r) => answeredAt(r.o, threshold) && CHECKED_KINDS.has(answerType(r.q.text)));
  return {
    n: answers.length,
    ...reliability(answers),
    eceInterval: statInterval(
      answers,
      (drawn) => reliability(drawn).ece,
      given.map((r) => r.q.vault),
      500,
    ),
    confident: {
      n: confident.length,
      right: confident.length ? confident.filter((a) => a.right).length / confident.length : NaN,
    },
    typed: {
      n: typed.length,
      accuracy: typed.length
        ? typed.filter((r) => hasAskedKind(r.o.answer ?? "", answerType(r.q.text))).length / typed.length
        : NaN,
    },
  };
}
