// Hybrid with a dense KNN leg vs hybrid re-scoring BM25's candidates only: quality per set (`node --import tsx eval/compare-rerank.ts`).
import { defaultRetrievalConfig } from "../src/search/retrieval-config.ts";
import { SETS } from "./data/index.ts";
import { prepareSet, runVariants } from "./run-set.ts";
import { writeFileSync } from "node:fs";

const rows: { set: string; variant: string; metrics: Record<string, number>; meanMs: number }[] = [];
for (const name of ["locomo", "longmemeval", "scifact"]) {
  const set = SETS[name]!();
  const run = await prepareSet(set);
  try {
    const results = await runVariants(run, [
      {
        name: "knn",
        label: "hybrid, dense KNN leg",
        mode: "hybrid",
        retrieval: { ...defaultRetrievalConfig, denseCandidates: true },
      },
      {
        name: "rerank",
        label: "hybrid, dense re-scores BM25 pool",
        mode: "hybrid",
        retrieval: { ...defaultRetrievalConfig, denseCandidates: false },
      },
    ]);
    for (const r of results) {
      rows.push({ set: name, variant: r.name, metrics: r.overall, meanMs: r.meanMs });
      process.stdout.write(`${name}\t${r.name}\t${JSON.stringify(r.overall)}\n`);
    }
  } finally {
    await run.harness.close();
  }
}
writeFileSync(
  new URL("./results/dense-leg.json", import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rows }, null, 2)}\n`,
);
