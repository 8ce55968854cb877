// Text output of the calibration run.
import type { FusionWeights } from "../../src/domain/fusion.ts";
import { textTable } from "../table.ts";
import type { GridPoint } from "./grid.ts";
import type { Calibration } from "./reliability.ts";

export const fmtWeights = (w: FusionWeights): string => `lexical ${w.lexical.toFixed(3)}, dense ${w.dense.toFixed(3)}, bias ${w.bias.toFixed(3)}`;

export function reliabilityText(title: string, c: Calibration): string {
  return [
    `${title}: n=${c.n} positives=${c.positives}  Brier ${c.brier.toFixed(4)} (base-rate predictor ${c.brierBaseRate.toFixed(4)})  ECE ${c.ece.toFixed(4)}`,
    textTable(["predicted", "n", "mean predicted", "observed rate"], c.bins.map((b) => [`${b.from.toFixed(2)}-${b.to.toFixed(2)}`, b.n, b.meanPredicted, b.observedRate])),
  ].join("\n");
}

export function gridText(points: readonly GridPoint[], lexicalAverage: number, sets: readonly string[], headlines: Record<string, string>): string {
  return textTable(
    ["w_dense/w_lex", ...sets.map((s) => `${s} ${headlines[s]}`), "average", "vs BM25"],
    points.map((p) => [String(p.ratio), ...sets.map((s) => p.headline[s] ?? 0), p.average, `${p.average >= lexicalAverage ? "+" : ""}${(p.average - lexicalAverage).toFixed(4)}`]),
  );
}
