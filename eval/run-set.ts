// One eval set end to end: fresh store, ingest through the service, every variant through memory.recall.
import { defaultRetrievalConfig, type RetrievalConfig } from "../src/search/retrieval-config.ts";
import { evaluate, type VariantResult } from "./evaluate.ts";
import { openHarness, type Harness } from "./harness.ts";
import { ingestSet } from "./ingest.ts";
import { progress } from "./progress.ts";
import type { EvalSet } from "./types.ts";
import { standardVariants, type Variant } from "./variants.ts";

export interface SetRun {
  set: EvalSet;
  harness: Harness;
  workspaces: Map<string, string>;
  ingestMs: number;
  chunks: number;
}

/** Opens a fresh store for the set and ingests it; the caller closes `harness`. */
export async function prepareSet(set: EvalSet, config: RetrievalConfig = defaultRetrievalConfig): Promise<SetRun> {
  const { harness, primary } = await openHarness(set.name, config);
  const t = performance.now();
  const { workspaces, chunks } = await ingestSet(primary, set);
  const ingestMs = performance.now() - t;
  progress(
    `${set.name}: ${set.vaults.length} vault(s), ${set.vaults.reduce((n, v) => n + v.docs.length, 0)} docs, ${chunks} chunks, ${set.queries.length} queries, ingest ${(ingestMs / 1000).toFixed(1)}s`,
  );
  return { set, harness, workspaces, ingestMs, chunks };
}

export async function runVariants(run: SetRun, variants: Variant[]): Promise<VariantResult[]> {
  const out: VariantResult[] = [];
  for (const v of variants) {
    const runtime = await run.harness.runtime(v.retrieval, v.cognitive);
    out.push(await evaluate(runtime, run.set, run.workspaces, v));
  }
  return out;
}

export async function runStandard(
  set: EvalSet,
  config: RetrievalConfig = defaultRetrievalConfig,
): Promise<{ run: SetRun; results: VariantResult[] }> {
  const run = await prepareSet(set, config);
  try {
    return { run, results: await runVariants(run, standardVariants(config)) };
  } finally {
    await run.harness.close();
  }
}
