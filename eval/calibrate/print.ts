// Text output of the calibration run.
import type { FusionWeights, ModeWeights, QueryCalibration } from "../../src/domain/retrieval/fusion.ts";
import { textTable } from "../table.ts";
import type { HeldOut, Model } from "./fit.ts";
import type { GridPoint } from "./grid.ts";
import type { Calibration } from "./reliability.ts";

export const fmtWeights = (w: FusionWeights): string =>
  `lexical ${w.lexical.toFixed(3)}, dense ${w.dense.toFixed(3)}, bias ${w.bias.toFixed(3)}`;
export const fmtCalibration = (w: QueryCalibration): string =>
  `gap ${w.gap.toFixed(3)}, best ${w.best.toFixed(3)}, rank ${w.rank.toFixed(3)}, bias ${w.bias.toFixed(3)}`;
export const fmtMode = (w: ModeWeights): string =>
  `fusion {${fmtWeights(w.fusion)}} calibration {${fmtCalibration(w.calibration)}}`;

export function reliabilityText(title: string, c: Calibration): string {
  return [
    `${title}: n=${c.n} positives=${c.positives}  Brier ${c.brier.toFixed(4)} (base-rate predictor ${c.brierBaseRate.toFixed(4)})  ECE ${c.ece.toFixed(4)}`,
    textTable(
      ["predicted", "n", "mean predicted", "observed rate"],
      c.bins.map((b) => [`${b.from.toFixed(2)}-${b.to.toFixed(2)}`, b.n, b.meanPredicted, b.observedRate]),
    ),
  ].join("\n");
}

/** Held-out Brier/ECE per mode: stage 1 alone (before) vs with the query-relative stage (after), overall and per set. */
export function beforeAfterRows(
  heldOut: Record<Model, HeldOut & { perSet: Record<string, { absolute: Calibration; relative: Calibration }> }>,
): (string | number)[][] {
  const f4 = (x: number) => x.toFixed(4);
  const row = (model: string, set: string, c: { absolute: Calibration; relative: Calibration }) => [
    model,
    set,
    c.absolute.n,
    c.absolute.positives,
    f4(c.absolute.brierBaseRate),
    f4(c.absolute.brier),
    f4(c.relative.brier),
    f4(c.absolute.ece),
    f4(c.relative.ece),
  ];
  const rows: (string | number)[][] = [];
  for (const [model, h] of Object.entries(heldOut)) {
    rows.push(row(model, "all", h));
    for (const [set, c] of Object.entries(h.perSet)) rows.push(row(model, set, c));
  }
  return rows;
}
export const BEFORE_AFTER_HEADER = [
  "mode",
  "set (test split)",
  "n",
  "positives",
  "Brier base rate",
  "Brier before",
  "Brier after",
  "ECE before",
  "ECE after",
];

/** Reliability of one mode before and after, bin by bin (the bins differ, so two row groups). */
export function reliabilityPairText(model: string, h: HeldOut): string {
  return `${reliabilityText(`held-out ${model}, BEFORE (stage 1 alone)`, h.absolute)}\n${reliabilityText(`held-out ${model}, AFTER (+ query-relative stage)`, h.relative)}`;
}

export function gridText(
  points: readonly GridPoint[],
  lexicalAverage: number,
  sets: readonly string[],
  headlines: Record<string, string>,
): string {
  return textTable(
    ["w_dense/w_lex", ...sets.map((s) => `${s} ${headlines[s]}`), "average", "vs BM25"],
    points.map((p) => [
      String(p.ratio),
      ...sets.map((s) => p.headline[s] ?? 0),
      p.average,
      `${p.average >= lexicalAverage ? "+" : ""}${(p.average - lexicalAverage).toFixed(4)}`,
    ]),
  );
}

/** Held-out Brier/ECE and top-1 score per mode, weights and population (answerable / unanswerable / mix). */
export const MIX_HEADER = [
  "mode",
  "weights",
  "population",
  "queries",
  "n",
  "positives",
  "Brier",
  "Brier base rate",
  "ECE",
  "mean top-1",
  "top-1 >= 0.5",
  "top-1 >= 0.3",
];
export function mixRows(
  evals: Record<
    string,
    Record<
      string,
      Record<
        string,
        {
          calibration: Calibration;
          top1: { queries: number; meanTop1: number; atLeastHalf: number; atLeast03: number };
        }
      >
    >
  >,
): (string | number)[][] {
  const f4 = (x: number) => x.toFixed(4);
  const rows: (string | number)[][] = [];
  for (const [mode, byWeights] of Object.entries(evals))
    for (const [weights, byPop] of Object.entries(byWeights))
      for (const [pop, { calibration: c, top1: t }] of Object.entries(byPop))
        rows.push([
          mode,
          weights,
          pop,
          t.queries,
          c.n,
          c.positives,
          f4(c.brier),
          f4(c.brierBaseRate),
          f4(c.ece),
          f4(t.meanTop1),
          `${(100 * t.atLeastHalf).toFixed(1)}%`,
          `${(100 * t.atLeast03).toFixed(1)}%`,
        ]);
  return rows;
}
