// Ranking sensitivity to the dense/lexical weight ratio: every set through memory.recall per ratio.
import type { RetrievalConfig } from "../../src/search/retrieval-config.ts";
import { evaluate, type VariantResult } from "../evaluate.ts";
import { progress } from "../progress.ts";
import type { SetRun } from "../run-set.ts";
import { ratioVariant, type Variant } from "../variants.ts";

export interface GridPoint {
  ratio: number;
  /** Each set's headline metric. */
  headline: Record<string, number>;
  average: number;
  results: Record<string, VariantResult>;
}

export async function evaluateVariant(
  runs: readonly SetRun[],
  variant: Variant,
): Promise<{ headline: Record<string, number>; average: number; results: Record<string, VariantResult> }> {
  const headline: Record<string, number> = {};
  const results: Record<string, VariantResult> = {};
  for (const run of runs) {
    const runtime = await run.harness.runtime(variant.retrieval, variant.cognitive);
    const r = await evaluate(runtime, run.set, run.workspaces, variant);
    results[run.set.name] = r;
    headline[run.set.name] = r.overall[run.set.headline] ?? 0;
  }
  const values = Object.values(headline);
  return { headline, average: values.reduce((a, b) => a + b, 0) / values.length, results };
}

/** Coarse ratios, then the midpoints beside the best one. */
export async function ratioGrid(
  runs: readonly SetRun[],
  config: RetrievalConfig,
  coarse: readonly number[],
): Promise<GridPoint[]> {
  const points = new Map<number, GridPoint>();
  const visit = async (ratio: number) => {
    const key = Number(ratio.toPrecision(4));
    if (points.has(key)) return;
    const r = await evaluateVariant(runs, ratioVariant(config, key));
    points.set(key, { ratio: key, ...r });
    progress(
      `ratio ${key}: ${Object.entries(r.headline)
        .map(([s, v]) => `${s} ${v.toFixed(3)}`)
        .join(", ")}; average ${r.average.toFixed(4)}`,
    );
  };
  for (const ratio of coarse) await visit(ratio);
  const sorted = [...points.values()].sort((a, b) => a.ratio - b.ratio);
  const bestAt = sorted.reduce((best, p, i) => (p.average > sorted[best]!.average ? i : best), 0);
  for (const neighbour of [sorted[bestAt - 1], sorted[bestAt + 1]])
    if (neighbour) await visit((neighbour.ratio + sorted[bestAt]!.ratio) / 2);
  return [...points.values()].sort((a, b) => a.ratio - b.ratio);
}
