// The tune split asked through the real service, with what tuning needs of each answer: its features, candidate spans and evidence.
import type { EvidenceChunk } from "../../../src/domain/answering/answer.ts";
import type { Language } from "../../../src/domain/answering/language.ts";
import type { Similar } from "../../../src/domain/answering/word-sense.ts";
import { readsAsName } from "../../../src/nlp/compromise-names.ts";
import { posTags } from "../../../src/nlp/wink-tagger.ts";
import type { WordSimilarity } from "../../../src/ports/embedding.ts";
import { defaultRetrievalConfig } from "../../../src/search/retrieval-config.ts";
import { openHarness } from "../../harness.ts";
import { ingestSet } from "../../ingest.ts";
import { ask } from "../ask.ts";
import { ANSWER_SETS, callFor } from "../run.ts";
import type { Row } from "../score.ts";
import { isRight } from "../score.ts";
import { containsNormalized, maxOver, tokenF1 } from "../squad.ts";

export interface Harvested extends Row {
  features: Record<string, number>;
  /** The answer is right (eval/answers/score.ts isRight): token F1 >= 0.5 against a gold answer, a resolved date equal to a dated gold; LoCoMo category 5 never. */
  correct: boolean;
  type: string;
  /** The best sentence's candidate spans (SpanFeatures) with their token F1 against the gold answers, and the sentence's own F1. */
  spans: { features: Record<string, number>; f1: number; contains: boolean; text: string }[];
  sentenceF1: number;
  /** The evidence the service planned from (with each chunk's source), to re-plan with other weights (--cv end to end). */
  chunks: (EvidenceChunk & { source: string })[];
}

let similar: Similar | undefined;

/** The word vectors (from the first harvest's embedder) and the tagger the service answers with: what a re-plan must be given. */
export const tuneLanguage = (): Language => ({ similar, tag: posTags, readsAsName });

/** Asks every tune question of set `name` through a fresh service and keeps what the tuning modes need of each answer. */
export async function harvest(name: string): Promise<Harvested[]> {
  const aset = ANSWER_SETS[name]!();
  const questions = aset.questions.filter((q) => q.split === "tune");
  const { harness, primary } = await openHarness(name, defaultRetrievalConfig);
  const words = primary.embedder as unknown as Partial<WordSimilarity>; // the GloVe embedder, as GroundedService gets it
  similar ??= words.similarity ? (a: string, b: string) => words.similarity!(a, b) : undefined;
  try {
    const { workspaces } = await ingestSet(primary, aset.set);
    const out: Harvested[] = [];
    for (const q of questions) {
      const call = callFor(aset, workspaces, q.vault);
      // The service's own deliberation (retrieval, cognitive weighing, plan; side-effect free), first: answering commits the thought.
      const { plan, chunks, scoreOf } = await primary.grounded.deliberate(call, { question: q.text, k: 8 });
      const o = await ask(primary, call, q.text);
      if (Math.abs(plan.confidence - o.confidence) > 1e-5) throw new Error(`plan and service disagree on '${q.text}'`);
      const row = { q, o };
      const correct = isRight({ q, o }); // what the confidence estimates (issue 40): the answer itself is right
      const sentence = plan.selected[0]?.text ?? "";
      const spans = plan.spans.map((c) => ({
        features: { ...c.features },
        f1: maxOver(tokenF1, sentence.slice(c.span.start, c.span.end), q.golds),
        contains: q.golds.some((g) => containsNormalized(sentence.slice(c.span.start, c.span.end), g)),
        text: sentence.slice(c.span.start, c.span.end),
      }));
      const evidence = chunks.map((c) => ({
        key: c.id,
        text: c.text,
        score: scoreOf.get(c.id) ?? 0,
        source: c.sourcePath,
      }));
      out.push({
        ...row,
        features: { ...plan.features },
        correct,
        type: plan.answerType,
        spans,
        sentenceF1: maxOver(tokenF1, sentence, q.golds),
        chunks: evidence,
      });
    }
    return out;
  } finally {
    await harness.close();
  }
}

export const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : (100 * x).toFixed(1));

/** A LoCoMo row (its id names the conversation and the question: "conv-26#3"); XQuAD ids have no "#". */
export const isLocomo = (r: Harvested) => r.q.id.includes("#");
