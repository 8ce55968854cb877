// Latency summaries: nearest-rank percentiles over milliseconds.

export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  min: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { n: 0, mean: NaN, p50: NaN, p90: NaN, p99: NaN, max: NaN, min: NaN };
  const s = Float64Array.from(samples).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  let sum = 0;
  for (const x of s) sum += x;
  return {
    n: s.length,
    mean: round(sum / s.length),
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    max: round(s[s.length - 1]!),
    min: round(s[0]!),
  };
}

export function round(x: number, digits = 3): number {
  return Number(x.toFixed(digits));
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
