// A ranking fit for the answerer's scorers: a conditional logit over each question's candidates (spans or sentences), then calibrated.
import { fitLogistic, type LogisticFit } from "../calibrate/logistic.ts";

/** One candidate: its features (in a fixed order) and its target (a span's token F1, a sentence's 0/1). */
export interface Ranked {
  x: readonly number[];
  t: number;
}

/**
 * Weights that rank each group's candidates (conditional logit, target = each candidate's share of its group's summed
 * targets, L2 1, full-batch Adam), then a logistic scale and bias on that score so that it is P(target >= 0.5); the
 * order within a group is the conditional logit's. Groups without a positive target teach no ranking and are skipped.
 */
export function fitRanking(groups: readonly (readonly Ranked[])[]): Pick<LogisticFit, "weights" | "bias"> {
  const qs = groups
    .filter((g) => g.some((c) => c.t > 0))
    .map((g) => {
      const sum = g.reduce((a, c) => a + c.t, 0);
      return g.map((c) => ({ x: c.x, t: c.t / sum }));
    });
  const d = groups.find((g) => g.length)?.[0]?.x.length ?? 0;
  const w = new Array<number>(d).fill(0);
  const m = w.map(() => 0);
  const v = w.map(() => 0);
  for (let it = 1; it <= 3000; it++) {
    const g = w.map((x) => x); // L2 1
    for (const cs of qs) {
      const z = cs.map((c) => c.x.reduce((a, x, j) => a + x * w[j]!, 0));
      const top = Math.max(...z);
      const e = z.map((x) => Math.exp(x - top));
      const sum = e.reduce((a, b) => a + b, 0);
      cs.forEach((c, i) => c.x.forEach((x, j) => (g[j]! += (e[i]! / sum - c.t) * x)));
    }
    for (let j = 0; j < d; j++) {
      m[j] = 0.9 * m[j]! + 0.1 * g[j]!;
      v[j] = 0.999 * v[j]! + 0.001 * g[j]! * g[j]!;
      w[j]! -= (0.05 * (m[j]! / (1 - 0.9 ** it))) / (Math.sqrt(v[j]! / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  const all = groups.flat();
  const cal = fitLogistic(
    all.map((c) => [c.x.reduce((a, x, j) => a + w[j]! * x, 0)]),
    all.map((c) => (c.t >= 0.5 ? 1 : 0)),
    0,
  );
  return { weights: w.map((x) => x * cal.weights[0]!), bias: cal.bias };
}
