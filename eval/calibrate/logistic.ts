// Logistic regression by Newton's method (IRLS) with an L2 penalty on the weights (not the bias).

export interface LogisticFit {
  weights: number[];
  bias: number;
  iterations: number;
  /** Mean log-loss on the training rows. */
  logLoss: number;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function predict(fit: Pick<LogisticFit, "weights" | "bias">, x: readonly number[], offset = 0): number {
  let z = fit.bias + offset;
  for (let j = 0; j < fit.weights.length; j++) z += fit.weights[j]! * x[j]!;
  return sigmoid(z);
}

/**
 * Fits P(y=1|x) = sigmoid(offset + w.x + b); `l2` is the penalty on the summed log-loss. A row's `offset` is a fixed
 * logit the fit corrects (the L2 penalty then shrinks towards it); absent = 0.
 */
export function fitLogistic(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  l2 = 1,
  maxIter = 50,
  offsets?: readonly number[],
): LogisticFit {
  const d = xs[0]?.length ?? 0;
  const p = d + 1; // parameters: weights then bias
  let theta = new Array<number>(p).fill(0);
  let iterations = 0;
  for (; iterations < maxIter; iterations++) {
    const grad = new Array<number>(p).fill(0);
    const hess = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    for (let i = 0; i < xs.length; i++) {
      const row = [...xs[i]!, 1];
      const mu = sigmoid((offsets?.[i] ?? 0) + row.reduce((s, v, j) => s + v * theta[j]!, 0));
      const r = mu - ys[i]!;
      const w = Math.max(mu * (1 - mu), 1e-12);
      for (let a = 0; a < p; a++) {
        grad[a]! += r * row[a]!;
        for (let b = 0; b <= a; b++) hess[a]![b]! += w * row[a]! * row[b]!;
      }
    }
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < a; b++) hess[b]![a] = hess[a]![b]!;
      if (a < d) {
        grad[a]! += l2 * theta[a]!;
        hess[a]![a]! += l2;
      }
    }
    const step = solve(hess, grad);
    theta = theta.map((t, j) => t - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const fit = { weights: theta.slice(0, d), bias: theta[d]! };
  return {
    ...fit,
    iterations,
    logLoss: logLoss(
      xs.map((x, i) => predict(fit, x, offsets?.[i])),
      ys,
    ),
  };
}

export function logLoss(probs: readonly number[], ys: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < probs.length; i++) {
    const q = Math.min(1 - 1e-12, Math.max(1e-12, probs[i]!));
    s -= ys[i]! ? Math.log(q) : Math.log(1 - q);
  }
  return s / Math.max(1, probs.length);
}

/** Gaussian elimination with partial pivoting (the systems here are at most 4x4). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}
