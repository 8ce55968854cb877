// Prints a set's tables and writes eval/results/<set>.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RetrievalConfig } from "../src/search/retrieval-config.ts";
import type { VariantResult } from "./evaluate.ts";
import { resultsDir } from "./paths.ts";
import { paired, type Paired } from "./paired.ts";
import { provenance, type Provenance } from "./provenance.ts";
import type { SetRun } from "./run-set.ts";
import { textTable } from "./table.ts";

export interface SetResult extends Provenance {
  set: string;
  embedder: string;
  config: RetrievalConfig;
  k: number;
  corpus: { vaults: number; docs: number; chunks: number; queries: number };
  headline: string;
  metrics: string[];
  references: SetRun["set"]["references"];
  notes: string[];
  timing: { ingestMs: number; wallMs: number; cpuMs: number };
  /** Smriti default minus plain BM25 on the headline metric, per query. */
  defaultVsBm25: Paired | null;
  variants: VariantResult[];
}

export function setResult(
  run: SetRun,
  results: VariantResult[],
  config: RetrievalConfig,
  embedder: string,
  timing: Omit<SetResult["timing"], "ingestMs">,
): SetResult {
  const { set } = run;
  return {
    set: set.name,
    ...provenance(),
    embedder,
    config,
    k: set.k,
    corpus: {
      vaults: set.vaults.length,
      docs: set.vaults.reduce((n, v) => n + v.docs.length, 0),
      chunks: run.chunks,
      queries: set.queries.length,
    },
    headline: set.headline,
    metrics: set.metrics,
    references: set.references,
    notes: set.notes,
    timing: { ingestMs: Math.round(run.ingestMs), ...timing },
    defaultVsBm25: compare(results, "bm25", "hybrid"),
    variants: results,
  };
}

export function compare(results: readonly VariantResult[], a: string, b: string): Paired | null {
  const x = results.find((v) => v.name === a);
  const y = results.find((v) => v.name === b);
  return x && y ? paired(x.perQuery, y.perQuery) : null;
}

export function pairedText(p: Paired): string {
  const f = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
  return `per query: better ${p.better}, worse ${p.worse}, tied ${p.tied}; mean ${f(p.meanDelta)} (bootstrap 95% CI ${f(p.ci95[0])} .. ${f(p.ci95[1])})`;
}

export function printSet(r: SetResult): void {
  const out: string[] = [
    `\n== ${r.set}  (${r.corpus.queries} queries, ${r.corpus.docs} docs, ${r.corpus.chunks} chunks; commit ${r.commit}${r.dirtySrc ? "+local changes" : ""})`,
  ];
  out.push(
    textTable(
      ["variant", ...r.metrics, "ms/query"],
      r.variants.map((v) => [v.label, ...r.metrics.map((m) => v.overall[m] ?? 0), v.meanMs.toFixed(1)]),
    ),
  );
  const groups = Object.keys(r.variants[0]?.groups ?? {});
  if (groups.length > 1) {
    out.push(`\n${r.headline} by group:`);
    out.push(
      textTable(
        ["group", "n", ...r.variants.map((v) => v.name)],
        groups.map((g) => [g, r.variants[0]!.groups[g]!.n, ...r.variants.map((v) => v.groups[g]?.[r.headline] ?? 0)]),
      ),
    );
  }
  for (const ref of r.references) out.push(`reference: ${ref.label} ${ref.metric} ${ref.value.toFixed(3)}`);
  const bm25 = r.variants.find((v) => v.name === "bm25")?.overall[r.headline];
  const smriti = r.variants.find((v) => v.name === "hybrid")?.overall[r.headline];
  if (bm25 !== undefined && smriti !== undefined)
    out.push(
      `headline ${r.headline}: plain BM25 ${bm25.toFixed(3)}  vs  Smriti default ${smriti.toFixed(3)}  (${smriti >= bm25 ? "+" : ""}${(smriti - bm25).toFixed(3)})`,
    );
  if (r.defaultVsBm25) out.push(`  Smriti default vs plain BM25 ${pairedText(r.defaultVsBm25)}`);
  process.stdout.write(`${out.join("\n")}\n`);
}

export function writeResult(name: string, value: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}
