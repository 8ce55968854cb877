// The recall-ideas section of eval/results/summary.md (ideas.json): each idea against the default, per set.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir } from "../paths.ts";
import { markdownTable } from "../table.ts";
import type { IdeasResult } from "./run.ts";

const HEADLINE: Record<string, string> = { locomo: "recall@10", longmemeval: "recall_all@5", scifact: "ndcg@10" };

export function ideasSummaryLines(): string[] {
  const file = join(resultsDir, "ideas.json");
  if (!existsSync(file)) return [];
  const r = JSON.parse(readFileSync(file, "utf8")) as IdeasResult;
  const rows = r.rows.map((x) => {
    const m = HEADLINE[x.set] ?? Object.keys(x.overall)[0]!;
    const splits = `${x.splits.fit.toFixed(4)} / ${x.splits.test.toFixed(4)}`;
    return [x.set, x.idea, m, x.overall[m] ?? NaN, splits, signed(x.delta), `${x.better} / ${x.worse}`];
  });
  return [
    `## Recall ideas (\`npm run eval -- ideas\`, ${r.date})`,
    "",
    "Each idea is the shipped default with one change (labels in `eval/ideas/variants.ts`); delta and better / worse",
    "are per query against the default (first row of each set). Dropped ideas and their figures: eval/README.md. Timings",
    "(`meanMs` in the JSON) are of runs under other helpers' load: the bench measures cost. fit / held out: the",
    "headline on the two splits of eval/splits.ts (a weight is chosen on fit, reported on held out).",
    "",
    markdownTable(["set", "idea", "metric", "value", "fit / held out", "delta", "better / worse"], rows),
    "",
  ];
}

const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(4)}`;
