// `npm run eval -- calibrate`: fit the fusion and query-relative calibration weights of every mode, choose the hybrid
// dense/lexical ratio on all sets, report held-out calibration before/after, write eval/results/calibration.json.
import type { ModeWeights } from "../../src/domain/fusion.ts";
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
import { textTable } from "../table.ts";
import { BOUNDS, calibrationOf, fitFusion, fitMode, heldOut, L2, MODELS, type HeldOut, type Model } from "./fit.ts";
import { evaluateVariant, ratioGrid } from "./grid.ts";
import { harvest, POOL, type Sample } from "./harvest.ts";
import { BEFORE_AFTER_HEADER, beforeAfterRows, fmtMode, fmtWeights, gridText, reliabilityPairText } from "./print.ts";
import type { Calibration } from "./reliability.ts";

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
    const test = samples.filter((s) => s.split === "test");

    // 1. Free stage 1 fits (all samples, and per set).
    const free = Object.fromEntries(MODELS.map((m) => [m, fitFusion(samples, m)])) as Record<Model, ReturnType<typeof fitFusion>>;
    const perSet = Object.fromEntries(
      ["locomo", "scifact"].map((s) => [s, Object.fromEntries(MODELS.map((m) => [m, fitFusion(samples.filter((x) => x.set === s), m)]))]),
    );
    for (const m of MODELS) out.push(`${m} stage 1 fit (all): ${fmtWeights(free[m])}; per set: ${Object.entries(perSet).map(([s, f]) => `${s} ${fmtWeights(f[m]!)}`).join(" | ")}`);
    const freeRatio = free.hybrid.lexical > 0 ? Math.max(0, free.hybrid.dense / free.hybrid.lexical) : 0;
    out.push(`free hybrid fit ratio w_dense/w_lex = ${freeRatio.toFixed(4)} (current default ${(base.hybrid.fusion.dense / base.hybrid.fusion.lexical).toFixed(4)})`);

    // 2. Ranking: grid over the hybrid ratio with every set through the service; lexical mode as the bar to beat.
    //    Stage 2 keeps the order within a query, so the ranking depends on the ratio alone.
    const bm25 = await evaluateVariant(runs, standardVariants(base)[0]!);
    const fitted: RetrievalConfig = { ...base, hybrid: { ...base.hybrid, fusion: { lexical: free.hybrid.lexical, dense: free.hybrid.dense, bias: free.hybrid.bias } } };
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

    // 3. Final weights per mode: stage 1 (hybrid ratio fixed by ranking, scale and bias by logistic fit), then stage 2
    //    (query-relative: gap to the query's best base logit, that best, ln(rank)) fitted over it.
    const ratioOf = (m: Model) => (m === "hybrid" ? ratio : undefined);
    const finals = Object.fromEntries(MODELS.map((m) => [m, fitMode(samples, m, ratioOf(m))])) as Record<Model, ReturnType<typeof fitMode>>;
    const recommended: RetrievalConfig = {
      lexicalOnly: roundMode(finals.lexicalOnly),
      vectorOnly: roundMode(finals.vectorOnly),
      hybrid: roundMode(finals.hybrid),
      candidates: base.candidates,
    };
    out.push("\nrecommended defaultRetrievalConfig:");
    for (const m of MODELS) out.push(`  ${m}: ${fmtMode(recommended[m])}${finals[m].atBound.length ? ` (at bound: ${finals[m].atBound.join(", ")})` : ""}; log-loss ${finals[m].logLoss.absolute.toFixed(5)} -> ${finals[m].logLoss.relative.toFixed(5)}`);

    // 4. Held-out calibration per mode: both stages fitted on the fit split, measured on the test split.
    const finalHeldOut = Object.fromEntries(
      MODELS.map((m) => {
        const h = heldOut(samples, m, ratioOf(m));
        const bySet = Object.fromEntries(
          ["locomo", "scifact"].map((s) => {
            const rows = test.filter((x) => x.set === s);
            return [s, { absolute: calibrationOf(rows, m, h.fitted.fusion), relative: calibrationOf(rows, m, h.fitted.fusion, h.fitted.calibration) }];
          }),
        );
        return [m, { ...h, perSet: bySet }];
      }),
    ) as Record<Model, HeldOut & { perSet: Record<string, { absolute: Calibration; relative: Calibration }> }>;
    const currentCalibration = Object.fromEntries(MODELS.map((m) => [m, calibrationOf(test, m, base[m].fusion, base[m].calibration)]));
    out.push("\nheld-out calibration (fitted on the fit split): before = stage 1 alone, after = + query-relative stage");
    out.push(textTable(BEFORE_AFTER_HEADER, beforeAfterRows(finalHeldOut)));
    for (const m of MODELS) out.push(reliabilityPairText(m, finalHeldOut[m]));
    for (const m of MODELS) out.push(`current default ${m} on the test split: Brier ${currentCalibration[m]!.brier.toFixed(4)}, ECE ${currentCalibration[m]!.ece.toFixed(4)}`);

    // 5. Every set with the recommended weights.
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
        pool: `retriever candidates with k=${POOL} in hybrid mode: BM25 top-${POOL} ∪ dense top-${POOL}; lexicalOnly rows = the BM25 pool, vectorOnly rows = the dense pool, hybrid rows = the union`,
        relevant: "LoCoMo: the chunk's dia_id is in the question's evidence; SciFact: the chunk's doc is in qrels",
        split: "fit = LoCoMo conv-26/30/41 + SciFact even query ids; test = conv-42/43 + odd ids",
        l2: L2,
        stage1: "logistic over the mode's signals (hybrid: w_dense/w_lex fixed by the ranking grid, scale and bias fitted)",
        stage2: `logistic with the base logit as offset over gap = base - query's best base, best, ln(rank by base); bounds gap >= ${BOUNDS.gapMin}, rank <= ${BOUNDS.rankMax} keep the order, best >= ${BOUNDS.bestMin}`,
        ratioObjective: "mean of LoCoMo recall@10, LongMemEval recall_all@5, SciFact nDCG@10 (all through memory.recall)",
        minGain: MIN_GAIN,
      },
      samples: countSamples(samples),
      current: { config: base, heldOutCalibration: currentCalibration },
      fits: { stage1: { all: free, perSet, freeRatio }, final: finals },
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

function roundMode(w: ModeWeights): ModeWeights {
  const r = (x: number) => Number(x.toFixed(3));
  const { fusion: f, calibration: c } = w;
  return { fusion: { lexical: r(f.lexical), dense: r(f.dense), bias: r(f.bias) }, calibration: { gap: r(c.gap), best: r(c.best), rank: r(c.rank), bias: r(c.bias) } };
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
