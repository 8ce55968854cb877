// XQuAD English (SQuAD v1.1 format): one vault per article, one document per paragraph, every question asked.
import { readFileSync } from "node:fs";
import { dataFile } from "../paths.ts";
import type { EvalQuery, Vault } from "../types.ts";
import type { AnswerQuestion, AnswerSet } from "./types.ts";

interface Squad {
  data: {
    title: string;
    paragraphs: {
      context: string;
      qas: { id: string; question: string; answers: { text: string; answer_start: number }[] }[];
    }[];
  }[];
}

export function loadXquad(): AnswerSet {
  const squad = JSON.parse(readFileSync(dataFile("xquad-en", "xquad-en-dev.json"), "utf8")) as Squad;
  const vaults: Vault[] = [];
  const queries: EvalQuery[] = [];
  const questions: AnswerQuestion[] = [];
  squad.data.forEach((article, a) => {
    vaults.push({
      name: article.title,
      docs: article.paragraphs.map((p, i) => ({ sourcePath: `${article.title}/p${i}.txt`, content: p.context })),
    });
    article.paragraphs.forEach((p, i) => {
      for (const qa of p.qas) {
        const source = `${article.title}/p${i}.txt`;
        queries.push({ id: qa.id, vault: article.title, text: qa.question, group: "all", gold: new Set([source]) });
        questions.push({
          id: qa.id,
          vault: article.title,
          text: qa.question,
          group: "all",
          split: a % 2 === 0 ? "tune" : "test",
          golds: qa.answers.map((x) => x.text),
          goldSources: [source],
          extractable: true,
        });
      }
    });
  });
  return {
    name: "xquad",
    // The retrieval view of the same data (gold unit = the question's paragraph); only its vaults are used here.
    set: {
      name: "xquad",
      vaults,
      queries,
      k: 8,
      unitOf: (sourcePath) => sourcePath,
      score: (ranked, q) => ({ "hit@1": ranked[0] !== undefined && q.gold.has(ranked[0]) ? 1 : 0 }),
      metrics: ["hit@1"],
      headline: "hit@1",
      references: [],
      notes: [],
    },
    questions,
    splitNote: "tune = even article index (0, 2, ..., 22 in file order), test = odd",
    notes: [
      "one vault per article, one document per paragraph ('<title>/p<i>.txt'); every question asked of its article's vault",
      "SQuAD v1.1 scoring: max over the gold answers, normalization of evaluate-v1.1.py",
    ],
  };
}
