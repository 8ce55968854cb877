// The two calibrated fusion models fitted from harvested samples, with held-out calibration quality.
import type { FusionWeights } from "../../src/domain/fusion.ts";
import type { Sample } from "./harvest.ts";
import { fitLogistic, predict, type LogisticFit } from "./logistic.ts";
import { calibration, type Calibration } from "./reliability.ts";

export const L2 = 1;

export type Model = "lexicalOnly" | "hybrid";

/** Rows a model sees: lexical-only ranks the BM25 pool; hybrid the union of both pools. */
export function rowsOf(samples: readonly Sample[], model: Model): Sample[] {
  return model === "lexicalOnly" ? samples.filter((s) => s.inLexicalPool) : [...samples];
}

/** Features per model; `ratio` fixes w_dense = ratio x w_lex (a single combined feature). */
function features(s: Sample, model: Model, ratio?: number): number[] {
  if (model === "lexicalOnly") return [s.lexical];
  return ratio === undefined ? [s.lexical, s.dense] : [s.lexical + ratio * s.dense];
}

function toWeights(fit: LogisticFit, model: Model, ratio?: number): FusionWeights {
  if (model === "lexicalOnly") return { lexical: fit.weights[0]!, dense: 0, bias: fit.bias };
  if (ratio !== undefined) return { lexical: fit.weights[0]!, dense: fit.weights[0]! * ratio, bias: fit.bias };
  return { lexical: fit.weights[0]!, dense: fit.weights[1]!, bias: fit.bias };
}

export function fitWeights(samples: readonly Sample[], model: Model, ratio?: number): FusionWeights & { logLoss: number } {
  const rows = rowsOf(samples, model);
  const fit = fitLogistic(rows.map((s) => features(s, model, ratio)), rows.map((s) => s.relevant), L2);
  return { ...toWeights(fit, model, ratio), logLoss: fit.logLoss };
}

/** Calibration of given weights on the model's rows (the service's logistic, exactly). */
export function calibrationOf(samples: readonly Sample[], model: Model, w: FusionWeights): Calibration {
  const rows = rowsOf(samples, model);
  const fit = { weights: model === "lexicalOnly" ? [w.lexical] : [w.lexical, w.dense], bias: w.bias };
  return calibration(rows.map((s) => predict(fit, model === "lexicalOnly" ? [s.lexical] : [s.lexical, s.dense])), rows.map((s) => s.relevant));
}

export interface HeldOut {
  /** Weights fitted on the fit split only. */
  fitted: FusionWeights;
  test: Calibration;
}

/** Fit on split "fit", measure on split "test". */
export function heldOut(samples: readonly Sample[], model: Model, ratio?: number): HeldOut {
  const { logLoss: _, ...fitted } = fitWeights(samples.filter((s) => s.split === "fit"), model, ratio);
  return { fitted, test: calibrationOf(samples.filter((s) => s.split === "test"), model, fitted) };
}
