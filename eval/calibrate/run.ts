// `npm run eval -- calibrate`: fit the logistic fusion/calibration weights, choose the dense/lexical ratio on all sets,
// report held-out calibration, write eval/results/calibration.json.
import { defaultRetrievalConfig, type RetrievalConfig } from "../../src/services/retrieval-config.ts";
import { SETS } from "../data/index.ts";
import { gloveEmbedder } from "../harness.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { pairedText, writeResult } from "../report.ts";
import { paired } from "../paired.ts";
import type { VariantResult } from "../evaluate.ts";
import { prepareSet, type SetRun } from "../run-set.ts";
import { standardVariants } from "../variants.ts";
import { calibrationOf, fitWeights, heldOut, L2, type Model } from "./fit.ts";
import { evaluateVariant, ratioGrid } from "./grid.ts";
import { harvest, POOL, type Sample } from "./harvest.ts";
import { fmtWeights, gridText, reliabilityText } from "./print.ts";

/** Held-out split: LoCoMo conv-26, -30, -41 and SciFact even query ids fit; conv-42, -43 and odd ids test. */
const FIT_CONVERSATIONS = new Set(["conv-26", "conv-30", "conv-41"]);
const split = (queryId: string, vault: string): "fit" | "test" =>
  vault === "scifact" ? (Number(queryId) % 2 === 0 ? "fit" : "test") : FIT_CONVERSATIONS.has(vault) ? "fit" : "test";

const COARSE_RATIOS = [0, 0.03, 0.06, 0.125, 0.25, 0.5, 1];
/** A hybrid ratio must beat lexical ranking by more than this (average of the headline metrics) to be used. */
const MIN_GAIN = 0.002;

export async function calibrate(): Promise<void> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const embedder = await gloveEmbedder();
  const base = defaultRetrievalConfig;
  const runs: SetRun[] = [];
  try {
    for (const name of ["locomo", "longmemeval", "scifact"]) runs.push(await prepareSet(SETS[name]!(), base));
    const samples: Sample[] = [];
    for (const run of runs.filter((r) => r.set.name !== "longmemeval")) samples.push(...(await harvest(await run.harness.runtime(base), run, split)));
    const out: string[] = [`\n== calibrate: ${samples.length} candidates (${samples.filter((s) => s.relevant).length} relevant) from top-${POOL} pools of LoCoMo + SciFact-train`];

    // 1. Free logistic fits (all samples) and held-out calibration (fit split -> test split).
    const models: Model[] = ["lexicalOnly", "hybrid"];
    const free = Object.fromEntries(models.map((m) => [m, fitWeights(samples, m)])) as Record<Model, ReturnType<typeof fitWeights>>;
    const perSet = Object.fromEntries(
      ["locomo", "scifact"].map((s) => [s, Object.fromEntries(models.map((m) => [m, fitWeights(samples.filter((x) => x.set === s), m)]))]),
    );
    const test = samples.filter((s) => s.split === "test");
    const currentCalibration = Object.fromEntries(models.map((m) => [m, calibrationOf(test, m, base[m])]));
    for (const m of models) out.push(`${m} fit (all): ${fmtWeights(free[m])}; per set: ${Object.entries(perSet).map(([s, f]) => `${s} ${fmtWeights(f[m]!)}`).join(" | ")}`);
    const freeRatio = free.hybrid.lexical > 0 ? Math.max(0, free.hybrid.dense / free.hybrid.lexical) : 0;
    out.push(`free hybrid fit ratio w_dense/w_lex = ${freeRatio.toFixed(4)} (current default ${(base.hybrid.dense / base.hybrid.lexical).toFixed(4)})`);

    // 2. Ranking: grid over the ratio with every set through the service; lexical mode as the bar to beat.
    const bm25 = await evaluateVariant(runs, standardVariants(base)[0]!);
    const fitted = { ...base, hybrid: { lexical: free.hybrid.lexical, dense: free.hybrid.dense, bias: free.hybrid.bias } };
    const grid = await ratioGrid(runs, fitted, [...COARSE_RATIOS, Number(freeRatio.toPrecision(3))]);
    const best = grid.reduce((a, b) => (b.average > a.average ? b : a));
    const useDense = best.ratio > 0 && best.average - bm25.average > MIN_GAIN;
    const ratio = useDense ? best.ratio : 0;
    const headlines = Object.fromEntries(runs.map((r) => [r.set.name, r.set.headline]));
    out.push(`\nranking by ratio (fitted weights scaled; plain BM25 average ${bm25.average.toFixed(4)}: ${Object.entries(bm25.headline).map(([s, v]) => `${s} ${v.toFixed(3)}`).join(", ")})`);
    out.push(gridText(grid, bm25.average, runs.map((r) => r.set.name), headlines));
    const near = grid.filter((p) => best.average - p.average <= 0.005).map((p) => p.ratio);
    out.push(`best ratio ${best.ratio} (average ${best.average.toFixed(4)}, ${best.average >= bm25.average ? "+" : ""}${(best.average - bm25.average).toFixed(4)} vs BM25); within 0.005 of best: ${near.join(", ")}`);
    out.push(useDense ? `hybrid default uses ratio ${ratio}` : `hybrid does not beat lexical by > ${MIN_GAIN} on the average: hybrid dense weight set to 0`);

    // 3. Final weights: ratio fixed by ranking, scale and bias by logistic fit (Platt) so scores stay calibrated.
    const hybridFinal = fitWeights(samples, "hybrid", ratio);
    const recommended: RetrievalConfig = {
      lexicalOnly: round(free.lexicalOnly),
      hybrid: round(hybridFinal),
      candidates: base.candidates,
    };
    const finalHeldOut = { lexicalOnly: heldOut(samples, "lexicalOnly"), hybrid: heldOut(samples, "hybrid", ratio), hybridFree: heldOut(samples, "hybrid") };
    out.push(`\nrecommended defaultRetrievalConfig: lexicalOnly {${fmtWeights(recommended.lexicalOnly)}}, hybrid {${fmtWeights(recommended.hybrid)}}`);
    out.push(reliabilityText("held-out calibration, lexicalOnly (fitted on the fit split)", finalHeldOut.lexicalOnly.test));
    out.push(reliabilityText(`held-out calibration, hybrid at ratio ${ratio} (fitted on the fit split)`, finalHeldOut.hybrid.test));
    out.push(reliabilityText("held-out calibration, hybrid free fit", finalHeldOut.hybridFree.test));
    out.push(reliabilityText("held-out calibration, CURRENT default lexicalOnly", currentCalibration["lexicalOnly"]!));
    out.push(reliabilityText("held-out calibration, CURRENT default hybrid", currentCalibration["hybrid"]!));

    // 4. Every set with the recommended weights.
    const final = await evaluateVariant(runs, { name: "recommended", label: "recommended hybrid", mode: "hybrid", retrieval: recommended });
    out.push(`\nrecommended hybrid on all sets: ${Object.entries(final.headline).map(([s, v]) => `${s} ${headlines[s]} ${v.toFixed(3)}`).join(", ")}; average ${final.average.toFixed(4)}`);
    const vsBm25 = Object.fromEntries(runs.map((r) => [r.set.name, paired(bm25.results[r.set.name]!.perQuery, final.results[r.set.name]!.perQuery)]));
    for (const [s, p] of Object.entries(vsBm25)) out.push(`  ${s} ${headlines[s]} recommended vs plain BM25 ${pairedText(p)}`);
    process.stdout.write(`${out.join("\n")}\n`);

    const used = process.cpuUsage(cpu);
    const file = writeResult("calibration", {
      ...provenance(),
      embedder: embedder.id,
      protocol: {
        pool: `retriever candidates with k=${POOL} in hybrid mode: BM25 top-${POOL} ∪ dense top-${POOL}; lexicalOnly rows = the BM25 pool`,
        relevant: "LoCoMo: the chunk's dia_id is in the question's evidence; SciFact: the chunk's doc is in qrels",
        split: "fit = LoCoMo conv-26/30/41 + SciFact even query ids; test = conv-42/43 + odd ids",
        l2: L2,
        ratioObjective: "mean of LoCoMo recall@10, LongMemEval recall_all@5, SciFact nDCG@10 (all through memory.recall)",
        minGain: MIN_GAIN,
      },
      samples: countSamples(samples),
      current: { config: base, heldOutCalibration: currentCalibration },
      fits: { all: free, perSet, freeRatio },
      lexicalModeAverage: { average: bm25.average, headline: bm25.headline },
      grid: grid.map((p) => ({ ratio: p.ratio, headline: p.headline, average: p.average, results: slim(p.results) })),
      chosen: { ratio, useDense, bestGridRatio: best.ratio, bestGridAverage: best.average, withinHalfPointOfBest: near },
      recommended,
      heldOut: finalHeldOut,
      recommendedEvaluation: { headline: final.headline, average: final.average, vsBm25, results: slim(final.results) },
      timing: { wallMs: Math.round(performance.now() - wall), cpuMs: Math.round((used.user + used.system) / 1000) },
    });
    progress(`wrote ${file}`);
  } finally {
    for (const r of runs) await r.harness.close();
  }
}

/** Results without the per-query arrays (kept only in the per-set files). */
function slim(results: Record<string, VariantResult>): Record<string, Omit<VariantResult, "perQuery">> {
  return Object.fromEntries(Object.entries(results).map(([k, { perQuery: _, ...rest }]) => [k, rest]));
}

function round<T extends { lexical: number; dense: number; bias: number }>(w: T): { lexical: number; dense: number; bias: number } {
  const r = (x: number) => Number(x.toFixed(3));
  return { lexical: r(w.lexical), dense: r(w.dense), bias: r(w.bias) };
}

function countSamples(samples: readonly Sample[]) {
  const out: Record<string, { rows: number; relevant: number; queries: number }> = {};
  for (const s of samples) {
    const key = `${s.set}/${s.split}`;
    const c = (out[key] ??= { rows: 0, relevant: 0, queries: 0 });
    c.rows++;
    c.relevant += s.relevant;
  }
  for (const key of Object.keys(out)) out[key]!.queries = new Set(samples.filter((s) => `${s.set}/${s.split}` === key).map((s) => s.query)).size;
  return out;
}
