// LoCoMo answers: the retrieval set's vaults (eval/data/locomo.ts), every QA item with its gold answer; category 5 = abstain.
import { readFileSync } from "node:fs";
import { loadLocomo, parseEvidence } from "../data/locomo.ts";
import { dataFile } from "../paths.ts";
import { containsNormalized } from "./squad.ts";
import type { AnswerQuestion, AnswerSet } from "./types.ts";

interface Sample {
  sample_id: string;
  qa: {
    question: string;
    answer?: string | number;
    adversarial_answer?: string;
    evidence: string[];
    category: number;
  }[];
}

export const LOCOMO_CATEGORY: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};
/** Conversations the answerer's weights and threshold may be tuned on; the rest are held out. */
export const LOCOMO_TUNE = new Set(["conv-26", "conv-30"]);

export function loadLocomoAnswers(): AnswerSet {
  const set = loadLocomo();
  const turns = new Map(set.vaults.flatMap((v) => v.docs.map((d): [string, string] => [d.sourcePath, d.content])));
  const samples = JSON.parse(readFileSync(dataFile("locomo", "locomo-dev.json"), "utf8")) as Sample[];
  const questions: AnswerQuestion[] = [];
  let noAnswer = 0;
  for (const s of samples) {
    s.qa.forEach((q, i) => {
      const group = LOCOMO_CATEGORY[q.category];
      if (!group) return;
      const golds = q.category === 5 ? [] : q.answer === undefined ? [] : [String(q.answer)];
      if (q.category !== 5 && golds.length === 0) return void noAnswer++;
      const goldSources = parseEvidence(q.evidence).map((d) => `${s.sample_id}/${d}`);
      const extractable = golds.some((g) =>
        containsNormalized(goldSources.map((p) => turns.get(p) ?? "").join(" \n "), g),
      );
      questions.push({
        id: `${s.sample_id}#${i}`,
        vault: s.sample_id,
        text: q.question,
        group,
        split: LOCOMO_TUNE.has(s.sample_id) ? "tune" : "test",
        golds,
        goldSources,
        extractable,
      });
    });
  }
  return {
    name: "locomo-answers",
    set,
    questions,
    splitNote: `tune = ${[...LOCOMO_TUNE].join(", ")}; test = the other conversations`,
    notes: [
      ...set.notes.slice(0, 2),
      "categories 1-4: normalized gold answer (SQuAD normalization) contained, on token boundaries, in the concatenated cited text spans / in the answer; an abstention counts as not contained",
      "category 5 (adversarial): the right behaviour is to abstain (insufficient_evidence)",
      "extractable = the normalized gold answer occurs in the question's evidence turns (the ceiling of any extractive answerer); most LoCoMo answers are paraphrases or resolved dates",
      `${noAnswer} category 1-4 item(s) without an answer skipped`,
    ],
  };
}
