// Runs a set's queries through memory.recall and averages the per-query metrics, overall and per group.
import type { FullRuntime } from "../src/main.ts";
import { mean, uniqueInOrder } from "./metrics.ts";
import { ticker } from "./progress.ts";
import { askedAtOf } from "./asked-at.ts";
import type { EvalSet, Metrics } from "./types.ts";
import type { Variant } from "./variants.ts";

export interface VariantResult {
  name: string;
  label: string;
  mode: string;
  weights: Variant["retrieval"];
  queries: number;
  overall: Metrics;
  groups: Record<string, Metrics & { n: number }>;
  /** Mean recall latency in ms (in-process, including citation building). */
  meanMs: number;
  /** The headline metric per query, in the set's query order (for paired comparisons). */
  perQuery: number[];
}

export async function evaluate(
  runtime: FullRuntime,
  set: EvalSet,
  workspaces: ReadonlyMap<string, string>,
  variant: Variant,
): Promise<VariantResult> {
  const perQuery: { group: string; m: Metrics }[] = [];
  const tick = ticker(`${set.name} ${variant.name}`, set.queries.length);
  let ms = 0;
  for (const q of set.queries) {
    const ws = workspaces.get(q.vault);
    if (!ws) throw new Error(`no workspace for vault ${q.vault}`);
    const t = performance.now();
    const res = await runtime.memory.recall(ws, { query: q.text, k: set.k, mode: variant.mode, ...askedAtOf(q) });
    ms += performance.now() - t;
    const ranked = uniqueInOrder(res.hits.map((h) => set.unitOf(h.source_path)));
    perQuery.push({ group: q.group, m: set.score(ranked, q) });
    tick(perQuery.length);
  }
  const average = (rows: { m: Metrics }[]): Metrics =>
    Object.fromEntries(set.metrics.map((name) => [name, mean(rows.map((r) => r.m[name] ?? 0))]));
  const groups: VariantResult["groups"] = {};
  for (const g of [...new Set(perQuery.map((r) => r.group))].sort()) {
    const rows = perQuery.filter((r) => r.group === g);
    groups[g] = { ...average(rows), n: rows.length };
  }
  return {
    name: variant.name,
    label: variant.label,
    mode: variant.mode,
    weights: variant.retrieval,
    queries: perQuery.length,
    overall: average(perQuery),
    groups,
    meanMs: ms / Math.max(1, perQuery.length),
    perQuery: perQuery.map((r) => r.m[set.headline] ?? 0),
  };
}
