// The answer and pack plans (pure, CPU-bound: sentence and span scoring, summaries) behind one port, so the serving
// process can compute them on a worker thread (plan-pool.ts) while its loop answers requests.
import { planAnswer, type AnswerPlan, type EvidenceChunk } from "../../domain/answering/answer.ts";
import type { Language } from "../../domain/answering/language.ts";
import { planPack, type PackCandidate, type PackPlan } from "../../domain/retrieval/pack.ts";

export interface PackOptions {
  budgetTokens: number;
  maxItems: number;
  intent: string;
}

export interface Planner {
  /** planAnswer over the evidence (its `keep` best sentences ranked). */
  answer(question: string, chunks: readonly EvidenceChunk[], keep: number): Promise<AnswerPlan>;
  /** planPack over the candidates, in their order; the plan refers to the very candidate objects given. */
  pack<T extends PackCandidate>(candidates: readonly T[], opts: PackOptions): Promise<PackPlan<T>>;
  close(): Promise<void>;
}

/** Plans on the calling thread (one-shot commands, the eval, tests that do not serve). */
export function localPlanner(language: Language = {}): Planner {
  return {
    answer: async (question, chunks, keep) => planAnswer(question, chunks, keep, language),
    pack: async (candidates, opts) => planPack(candidates, opts),
    close: async () => {},
  };
}
