// BEIR SciFact (train queries): one vault of all abstracts; doc-level nDCG@10 and Recall@100.
import { readFileSync } from "node:fs";
import { dataFile } from "../paths.ts";
import { ndcg, recallAt } from "../metrics.ts";
import type { EvalQuery, EvalSet } from "../types.ts";

const VAULT = "scifact";

function jsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

export function loadScifact(): EvalSet {
  const corpus = jsonl<{ _id: string; title: string; text: string }>(dataFile("scifact", "corpus.jsonl"));
  const texts = jsonl<{ _id: string; text: string }>(dataFile("scifact", "queries-train.jsonl"));
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(dataFile("scifact", "qrels", "train.tsv"), "utf8").split("\n").slice(1)) {
    const [q, d, s] = line.trim().split("\t");
    if (!q || !d || Number(s) <= 0) continue;
    qrels.set(q, (qrels.get(q) ?? new Set()).add(d));
  }
  const queries: EvalQuery[] = texts.filter((q) => qrels.has(q._id)).map((q) => ({ id: q._id, vault: VAULT, text: q.text, group: "train", gold: qrels.get(q._id)! }));
  return {
    name: "scifact",
    vaults: [{ name: VAULT, docs: corpus.map((d) => ({ sourcePath: d._id, content: `${d.title}\n\n${d.text}` })) }],
    queries,
    k: 100,
    unitOf: (sourcePath) => sourcePath,
    score: (ranked, q) => ({ "ndcg@10": ndcg(ranked, q.gold, 10), "recall@100": recallAt(ranked, q.gold, 100) }),
    metrics: ["ndcg@10", "recall@100"],
    headline: "ndcg@10",
    references: [
      { label: "DESIGN.md plain BM25 (train)", metric: "ndcg@10", value: 0.668 },
      { label: "BEIR BM25 (test split)", metric: "ndcg@10", value: 0.665 },
    ],
    notes: [
      "one vault, source_path = doc id, content = title + blank line + text; train queries with qrels",
      "a doc's rank = rank of its best chunk; recall@100 counts the distinct docs among the top 100 chunks (API max k=100), so it can only understate",
    ],
  };
}
