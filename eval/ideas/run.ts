// Recall ideas of issue 44, each measured against the shipped default on every retrieval set (`npm run eval -- ideas`;
// SMRITI_IDEAS=name,name and SMRITI_IDEAS_SETS=locomo,... narrow it). Writes eval/results/ideas.json.
import { writeFileSync } from "node:fs";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { SETS } from "../data/index.ts";
import { paired } from "../paired.ts";
import { progress } from "../progress.ts";
import { prepareSet, runVariants } from "../run-set.ts";
import type { EvalSet } from "../types.ts";
import type { Variant } from "../variants.ts";
import { splitOf, type Split } from "../splits.ts";
import { IDEAS } from "./variants.ts";

export interface IdeasResult {
  date: string;
  rows: Row[];
}

interface Row {
  set: string;
  idea: string;
  overall: Record<string, number>;
  groups: Record<string, Record<string, number>>;
  /** Headline metric on the fit and held-out splits (eval/splits.ts): choose on `fit`, report `test`. */
  splits: Record<Split, number>;
  meanMs: number;
  /** Headline metric vs the default, per query. */
  better: number;
  worse: number;
  delta: number;
  ci95: [number, number];
}

export async function runIdeas(): Promise<void> {
  const only = process.env["SMRITI_IDEAS"]?.split(",");
  const sets = process.env["SMRITI_IDEAS_SETS"]?.split(",") ?? ["locomo", "longmemeval", "scifact"];
  const ideas = IDEAS.filter((i) => !only || only.includes(i.name));
  const base: Variant = { name: "default", label: "Smriti default", mode: "hybrid", retrieval: defaultRetrievalConfig };
  const rows: Row[] = [];
  for (const name of sets) {
    const set = SETS[name]!();
    const run = await prepareSet(set);
    try {
      const results = await runVariants(run, [base, ...ideas.filter((i) => !i.sets || i.sets.includes(name))]);
      const ref = results[0]!;
      for (const r of results) {
        const p = paired(ref.perQuery, r.perQuery);
        const groups = Object.fromEntries(Object.entries(r.groups).map(([g, m]) => [g, { ...m }]));
        const splits = bySplit(set, r.perQuery);
        rows.push({
          set: name,
          idea: r.name,
          overall: r.overall,
          groups,
          splits,
          meanMs: r.meanMs,
          better: p.better,
          worse: p.worse,
          delta: p.meanDelta,
          ci95: p.ci95,
        });
        const head = r.overall[set.headline] ?? 0;
        const grp = Object.entries(r.groups)
          .map(([g, m]) => `${g} ${(m[set.headline] ?? 0).toFixed(3)}`)
          .join(", ");
        progress(
          `${name}\t${r.name}\t${set.headline} ${head.toFixed(4)} [fit ${splits.fit.toFixed(4)}, test ${splits.test.toFixed(4)}] (${p.meanDelta >= 0 ? "+" : ""}${p.meanDelta.toFixed(4)}, +${p.better}/-${p.worse}; ${grp}) ${r.meanMs.toFixed(2)} ms`,
        );
      }
    } finally {
      await run.harness.close();
    }
  }
  const file = new URL("../results/ideas.json", import.meta.url);
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rows }, null, 2)}\n`);
  progress(`wrote ${file.pathname}`);
}

/** The mean of a per-query metric over each split's queries. */
function bySplit(set: EvalSet, perQuery: readonly number[]): Record<Split, number> {
  const sums = { fit: [0, 0], test: [0, 0] };
  set.queries.forEach((q, i) => {
    const s = sums[splitOf(q.id, q.vault, i)];
    s[0]! += perQuery[i] ?? 0;
    s[1]!++;
  });
  return { fit: sums.fit[0]! / Math.max(1, sums.fit[1]!), test: sums.test[0]! / Math.max(1, sums.test[1]!) };
}
