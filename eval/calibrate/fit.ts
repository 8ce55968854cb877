// The calibrated scoring models fitted from harvested samples (stage 1: absolute signals; stage 2: query-relative),
// with held-out calibration quality. Predictions go through the service's own fusion code.
import {
  calibrateQuery,
  fuse,
  keepsOrder,
  type FusionWeights,
  type ModeWeights,
  type QueryCalibration,
} from "../../src/domain/retrieval/fusion.ts";
import { weighConversation } from "../../src/search/conversation.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import type { Sample } from "./harvest.ts";
import { fitLogistic } from "./logistic.ts";
import { calibration, type Calibration } from "./reliability.ts";

export const L2 = 1;

export type Model = "lexicalOnly" | "vectorOnly" | "hybrid";
export const MODELS: readonly Model[] = ["lexicalOnly", "vectorOnly", "hybrid"];

/** Hybrid's pool: the union of both legs, or (`denseCandidates: false`, the default) BM25's pool re-scored. */
export const hybridPool = { union: false };

/** The candidates a mode ranks: lexical the BM25 pool, vector the dense pool, hybrid the union or the BM25 pool. */
export function rowsOf(samples: readonly Sample[], model: Model): Sample[] {
  return model === "lexicalOnly" || (model === "hybrid" && !hybridPool.union)
    ? samples.filter((s) => s.inLexicalPool)
    : model === "vectorOnly"
      ? samples.filter((s) => s.inDensePool)
      : [...samples];
}

/** Stage 1 features per model; `ratio` fixes w_dense = ratio x w_lex (a single combined feature). */
function features(s: Sample, model: Model, ratio?: number): number[] {
  if (model === "lexicalOnly") return [s.lexical];
  if (model === "vectorOnly") return [s.dense];
  return ratio === undefined ? [s.lexical, s.dense] : [s.lexical + ratio * s.dense];
}

function toWeights(w: readonly number[], bias: number, model: Model, ratio?: number): FusionWeights {
  if (model === "lexicalOnly") return { lexical: w[0]!, dense: 0, bias };
  if (model === "vectorOnly") return { lexical: 0, dense: w[0]!, bias };
  if (ratio !== undefined) return { lexical: w[0]!, dense: w[0]! * ratio, bias };
  return { lexical: w[0]!, dense: w[1]!, bias };
}

/** Stage 1: logistic fit on the model's rows. */
export function fitFusion(
  samples: readonly Sample[],
  model: Model,
  ratio?: number,
): FusionWeights & { logLoss: number } {
  const rows = rowsOf(samples, model);
  const fit = fitLogistic(
    rows.map((s) => features(s, model, ratio)),
    rows.map((s) => s.relevant),
    L2,
  );
  return { ...toWeights(fit.weights, fit.bias, model, ratio), logLoss: fit.logLoss };
}

/** A row with its base logit and the query-relative features stage 2 sees (as `calibrateQuery` computes them). */
export interface Scored {
  sample: Sample;
  base: number;
  gap: number;
  best: number;
  lnRank: number;
}

/** Groups the model's rows by query and scores them as the retriever does (lexical mode has no dense signal). */
export function scoreRows(samples: readonly Sample[], model: Model, fusion: FusionWeights): Scored[][] {
  const byQuery = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = `${s.set}\u0000${s.query}`;
    const list = byQuery.get(key);
    if (list) list.push(s);
    else byQuery.set(key, [s]);
  }
  const out: Scored[][] = [];
  for (const all of byQuery.values()) {
    const pool = rowsOf(all, model);
    if (pool.length === 0) continue;
    const rows = model === "hybrid" ? [...pool, ...liftedIn(all, pool)] : pool;
    const scored = rows.map((s) => ({
      sample: s,
      base: fuse({ lexical: s.lexical, dense: model === "lexicalOnly" ? null : s.dense }, fusion).logit,
    }));
    if (model === "hybrid") weighTurns(scored);
    scored.sort((a, b) => b.base - a.base);
    const best = scored[0]!.base;
    let rank = 0;
    out.push(
      scored.map((r, i) => {
        if (i === 0 || r.base < scored[i - 1]!.base) rank = i + 1;
        return { ...r, gap: r.base - best, best, lnRank: Math.log(rank) };
      }),
    );
  }
  return out;
}

/** Stage 1 fits the pool's rows; the ranked list also holds the thread neighbours of pool rows outside the pool. */
function liftedIn(all: readonly Sample[], pool: readonly Sample[]): Sample[] {
  const inPool = new Set(pool);
  const wanted = new Set(pool.flatMap((s) => s.neighbours));
  return all.filter((s) => !inPool.has(s) && wanted.has(s.id));
}

/** The speaker rule's query term for the rows that are a named speaker's turns (harvest matched the real names). */
const NAMED = "\u0000named";

/** The retriever's conversation rules over one query's hybrid rows (thread lift, named speaker, session context). */
function weighTurns(rows: { sample: Sample; base: number }[]): void {
  const turns = rows.map((r) => ({
    id: r.sample.id,
    base: r.base,
    contributions: {},
    neighbours: r.sample.neighbours,
    speaker: r.sample.namedSpeaker ? NAMED : undefined,
    session: r.sample.session ?? undefined,
  }));
  weighConversation(turns, new Set([NAMED]), defaultRetrievalConfig);
  turns.forEach((t, i) => (rows[i]!.base = t.base));
}

export type Feature = "gap" | "best" | "rank";
export const FEATURES: readonly Feature[] = ["gap", "best", "rank"];
const featureOf = (r: Scored, f: Feature): number => (f === "gap" ? r.gap : f === "best" ? r.best : r.lnRank);
export const IDENTITY: QueryCalibration = { gap: 0, best: 0, rank: 0, bias: 0 };

/**
 * Bounds of stage 2. Order-keeping: rank <= 0, and gap >= -0.9 (the score keeps at least a tenth of the base logit's
 * slope within a query; `keepsOrder` needs gap > -1). Across queries: best >= -1, so raising every base logit of a
 * query never lowers its scores.
 */
export const BOUNDS = { gapMin: -0.9, rankMax: 0, bestMin: -1 };

/**
 * Stage 2: logistic fit of the residual over the base logit (the base is the offset, so zero weights = stage 1 alone).
 * A weight that leaves its bound is fixed at the bound and the others are refitted (the log-likelihood is concave, so
 * the constrained optimum of a single violated bound lies on it).
 */
export function fitCalibration(
  queries: readonly (readonly Scored[])[],
  use: readonly Feature[] = FEATURES,
): QueryCalibration & { logLoss: number; atBound: Feature[] } {
  const rows = queries.flat();
  const fixed: Partial<Record<Feature, number>> = {};
  for (;;) {
    const free = use.filter((f) => fixed[f] === undefined);
    const offsets = rows.map(
      (r) => r.base + Object.entries(fixed).reduce((a, [f, v]) => a + v * featureOf(r, f as Feature), 0),
    );
    const fit = fitLogistic(
      rows.map((r) => free.map((f) => featureOf(r, f))),
      rows.map((r) => r.sample.relevant),
      L2,
      100,
      offsets,
    );
    const w: QueryCalibration = { ...IDENTITY, ...fixed, bias: fit.bias };
    free.forEach((f, j) => (w[f] = fit.weights[j]!));
    const out = [
      ...(w.gap < BOUNDS.gapMin ? (["gap"] as const) : []),
      ...(w.rank > BOUNDS.rankMax ? (["rank"] as const) : []),
      ...(w.best < BOUNDS.bestMin ? (["best"] as const) : []),
    ];
    if (out.length === 0) {
      if (!keepsOrder(w)) throw new Error(`stage 2 fit ${JSON.stringify(w)} does not keep the order`);
      return { ...w, logLoss: fit.logLoss, atBound: Object.keys(fixed) as Feature[] };
    }
    for (const f of out) fixed[f] = f === "gap" ? BOUNDS.gapMin : f === "rank" ? BOUNDS.rankMax : BOUNDS.bestMin;
  }
}

/** Calibrated scores of the model's rows through the service's code; without `calibration`, stage 1 alone. */
export function predictions(
  samples: readonly Sample[],
  model: Model,
  fusion: FusionWeights,
  calibration?: QueryCalibration,
): { p: number; y: number }[] {
  const out: { p: number; y: number }[] = [];
  for (const q of scoreRows(samples, model, fusion)) {
    const scores = calibrateQuery(
      q.map((r) => r.base),
      calibration ?? IDENTITY,
    );
    q.forEach((r, i) => out.push({ p: scores[i]!.score, y: r.sample.relevant }));
  }
  return out;
}

export function calibrationOf(
  samples: readonly Sample[],
  model: Model,
  fusion: FusionWeights,
  stage2?: QueryCalibration,
): Calibration {
  const rows = predictions(samples, model, fusion, stage2);
  return calibration(
    rows.map((r) => r.p),
    rows.map((r) => r.y),
  );
}

/** Both stages fitted on `samples` (stage 2 over the fitted stage 1). */
export function fitMode(
  samples: readonly Sample[],
  model: Model,
  ratio?: number,
  use: readonly Feature[] = FEATURES,
): ModeWeights & { logLoss: { absolute: number; relative: number }; atBound: Feature[] } {
  const { logLoss: absolute, ...fusion } = fitFusion(samples, model, ratio);
  const { logLoss: relative, atBound, ...cal } = fitCalibration(scoreRows(samples, model, fusion), use);
  return { fusion, calibration: cal, logLoss: { absolute, relative }, atBound };
}

/** Stage 2 alone, fitted over a stage 1 that stays exactly as given (`calibrate` with SMRITI_CALIBRATE_STAGE1=keep). */
export function fitOver(
  samples: readonly Sample[],
  model: Model,
  fusion: FusionWeights,
  use: readonly Feature[] = FEATURES,
): ModeWeights & { logLoss: { absolute: number; relative: number }; atBound: Feature[] } {
  const { logLoss: relative, atBound, ...cal } = fitCalibration(scoreRows(samples, model, fusion), use);
  const rows = predictions(samples, model, fusion);
  const absolute = -rows.reduce((a, r) => a + Math.log(r.y ? r.p : 1 - r.p), 0) / Math.max(1, rows.length);
  return { fusion, calibration: cal, logLoss: { absolute, relative }, atBound };
}

export interface HeldOut {
  /** Weights fitted on the fit split only. */
  fitted: ModeWeights;
  /** Test split, stage 1 alone (the absolute calibration the service used before). */
  absolute: Calibration;
  /** Test split, stage 1 + the query-relative stage 2. */
  relative: Calibration;
}

/** Fit on split "fit", measure on split "test". */
export function heldOut(
  samples: readonly Sample[],
  model: Model,
  ratio?: number,
  use: readonly Feature[] = FEATURES,
): HeldOut {
  const {
    logLoss: _,
    atBound: __,
    ...fitted
  } = fitMode(
    samples.filter((s) => s.split === "fit"),
    model,
    ratio,
    use,
  );
  const test = samples.filter((s) => s.split === "test");
  return {
    fitted,
    absolute: calibrationOf(test, model, fitted.fusion),
    relative: calibrationOf(test, model, fitted.fusion, fitted.calibration),
  };
}

/** Top-1 calibrated score per query (the score a caller thresholds to ask "does memory have anything?"). */
export interface TopOne {
  queries: number;
  meanTop1: number;
  /** Share of queries whose top-1 score is >= 0.5 (and >= 0.3). */
  atLeastHalf: number;
  atLeast03: number;
}

export function topOne(
  samples: readonly Sample[],
  model: Model,
  fusion: FusionWeights,
  stage2?: QueryCalibration,
): TopOne {
  const tops = scoreRows(samples, model, fusion).map(
    (q) =>
      calibrateQuery(
        q.map((r) => r.base),
        stage2 ?? IDENTITY,
      )[0]!.score,
  );
  const n = Math.max(1, tops.length);
  return {
    queries: tops.length,
    meanTop1: tops.reduce((a, b) => a + b, 0) / n,
    atLeastHalf: tops.filter((t) => t >= 0.5).length / n,
    atLeast03: tops.filter((t) => t >= 0.3).length / n,
  };
}

/**
 * A calibration mix: the answerable rows plus `perQuery` unanswerable versions of each LoCoMo/LongMemEval question
 * (its first `perQuery` foreign vaults). Where a split has fewer foreign vaults than asked (the test split has two
 * LoCoMo conversations, so one each), the available ones are repeated under new query keys: the same share by weight.
 */
export function withUnanswerable(samples: readonly Sample[], perQuery: number): Sample[] {
  const answerable = samples.filter((s) => s.foreign === undefined);
  if (perQuery === 0) return answerable;
  const foreign = samples.filter((s) => s.foreign !== undefined);
  const byQuestion = new Map<string, Map<number, Sample[]>>();
  for (const s of foreign) {
    const key = `${s.set}\u0000${s.query.slice(0, s.query.lastIndexOf("@"))}`;
    const m = byQuestion.get(key) ?? new Map<number, Sample[]>();
    byQuestion.set(key, m);
    const list = m.get(s.foreign!) ?? [];
    m.set(s.foreign!, list);
    list.push(s);
  }
  const out = [...answerable];
  for (const m of byQuestion.values()) {
    const have = [...m.keys()].sort((a, b) => a - b);
    for (let i = 0; i < perQuery; i++) {
      const rows = m.get(have[i % have.length]!)!;
      out.push(...(i < have.length ? rows : rows.map((r) => ({ ...r, query: `${r.query}#copy${i}` }))));
    }
  }
  return out;
}

/**
 * The hybrid rows whose base logit the thread lift raised (in the query's top `top` after calibration): how many, their
 * mean calibrated score and how many of them are relevant. What a fit without the lift gets wrong shows here.
 */
export function liftedReliability(
  samples: readonly Sample[],
  weights: ModeWeights,
  top = 10,
): { n: number; meanScore: number; observed: number } {
  let n = 0;
  let sum = 0;
  let relevant = 0;
  for (const q of scoreRows(samples, "hybrid", weights.fusion)) {
    const scores = calibrateQuery(
      q.map((r) => r.base),
      weights.calibration,
    );
    q.slice(0, top).forEach((r, i) => {
      const own = fuse({ lexical: r.sample.lexical, dense: r.sample.dense }, weights.fusion).logit;
      if (r.base <= own) return;
      n++;
      sum += scores[i]!.score;
      relevant += r.sample.relevant;
    });
  }
  return { n, meanScore: n > 0 ? sum / n : 0, observed: n > 0 ? relevant / n : 0 };
}
