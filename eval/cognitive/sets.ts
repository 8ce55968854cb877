// The ablation/tuner sets: each ingested once, then measured per query under any cognitive config through the real service.
import { askedAtOf } from "../asked-at.ts";
import type { CognitiveConfig } from "../../src/cognitive/params.ts";
import type { FullRuntime } from "../../src/main.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { callFor } from "../answers/run.ts";
import { loadXquad } from "../answers/xquad.ts";
import { SETS } from "../data/index.ts";
import { uniqueInOrder } from "../metrics.ts";
import { prepareSet, type SetRun } from "../run-set.ts";
import { ticker } from "../progress.ts";

/** Per metric, one value per query (NaN = the query does not count for that metric, e.g. precision of an abstention). */
export type PerQuery = Record<string, number[]>;

export interface MeasuredSet {
  name: string;
  /** Metric names this set yields, headline first. */
  metrics: string[];
  measure(cognitive: CognitiveConfig): Promise<PerQuery>;
  close(): Promise<void>;
}

/** The headline metrics of the ablation table, in column order. */
export const ABLATION_METRICS = [
  "locomo recall@10",
  "longmemeval recall_all@5",
  "scifact ndcg@10",
  "xquad containment",
  "xquad precision",
  "locomo pack recall",
];

async function runtimeFor(run: SetRun, cognitive: CognitiveConfig): Promise<FullRuntime> {
  return run.harness.runtime(defaultRetrievalConfig, cognitive);
}

/** A retrieval set's headline through memory.recall (hybrid); for LoCoMo also the share of gold turns inside a default pack. */
async function retrievalSet(name: string, withPack: boolean): Promise<MeasuredSet> {
  const set = SETS[name]!();
  const run = await prepareSet(set);
  const headline = `${name} ${set.headline}`;
  return {
    name,
    metrics: withPack ? [headline, `${name} pack recall`] : [headline],
    async measure(cognitive) {
      const runtime = await runtimeFor(run, cognitive);
      const out: PerQuery = { [headline]: [], ...(withPack ? { [`${name} pack recall`]: [] } : {}) };
      const tick = ticker(`${name}`, set.queries.length);
      for (const q of set.queries) {
        const ws = run.workspaces.get(q.vault)!;
        const res = await runtime.memory.recall(ws, { query: q.text, k: set.k, mode: "hybrid", ...askedAtOf(q) });
        out[headline]!.push(
          set.score(uniqueInOrder(res.hits.map((h) => set.unitOf(h.source_path))), q)[set.headline] ?? 0,
        );
        if (withPack) {
          const pack = await runtime.memory.pack(ws, { intent: q.text });
          const units = new Set(pack.items.map((i) => set.unitOf(i.citation.source_path)));
          out[`${name} pack recall`]!.push([...q.gold].filter((g) => units.has(g)).length / Math.max(1, q.gold.size));
        }
        tick(out[headline]!.length);
      }
      return out;
    },
    close: () => run.harness.close(),
  };
}

/** XQuAD through grounded.answer: containment = answered with a gold answer inside citations[0]; precision = the same among answered. */
async function xquadSet(): Promise<MeasuredSet> {
  const aset = loadXquad();
  const run = await prepareSet(aset.set);
  return {
    name: "xquad",
    metrics: ["xquad containment", "xquad precision"],
    async measure(cognitive) {
      const runtime = await runtimeFor(run, cognitive);
      const out: PerQuery = { "xquad containment": [], "xquad precision": [] };
      const tick = ticker("xquad", aset.questions.length);
      for (const q of aset.questions) {
        let contained: number | null = null;
        try {
          const r = await runtime.grounded.answer(callFor(aset, run.workspaces, q.vault), { question: q.text });
          contained = q.golds.some((g) => r.citations[0]?.text_span.includes(g)) ? 1 : 0;
        } catch (err) {
          if ((err as { code?: string }).code !== "insufficient_evidence") throw err;
        }
        out["xquad containment"]!.push(contained ?? 0);
        out["xquad precision"]!.push(contained ?? NaN);
        tick(out["xquad containment"]!.length);
      }
      return out;
    },
    close: () => run.harness.close(),
  };
}

/** `pack: false` skips the LoCoMo pack metric (the tuner does not use it). */
export async function openMeasuredSets(opts: { pack: boolean } = { pack: true }): Promise<MeasuredSet[]> {
  return [
    await retrievalSet("locomo", opts.pack),
    await retrievalSet("longmemeval", false),
    await retrievalSet("scifact", false),
    await xquadSet(),
  ];
}

/** Mean over the queries that count (not NaN), optionally only those whose index passes `keep`. */
export function meanOf(values: readonly number[], keep: (i: number) => boolean = () => true): number {
  let sum = 0;
  let n = 0;
  values.forEach((v, i) => {
    if (!Number.isNaN(v) && keep(i)) {
      sum += v;
      n++;
    }
  });
  return n === 0 ? NaN : sum / n;
}
