// Latency measured in phases that alternate with idle ones, and a busy phase's cost read against its own neighbours.
import { median, round, summarize } from "./stats.ts";

/** One phase of samples, in the order the phases ran: idle, or busy with some kind of load. */
export interface Phase<Kind extends string = string> {
  kind: Kind | "idle";
  samples: number[];
}

/**
 * Each phase of `kind` against the idle phases either side of it (its p50 over the mean of theirs), and the median of
 * those ratios: a drift of the baseline over the run cancels, and one phase caught in a slow spell does not move it.
 */
export function bracketed<Kind extends string>(
  phases: readonly Phase<Kind>[],
  kind: Kind,
): { ratio: number; phases: number[] } {
  const idleP50 = (p: Phase<Kind> | undefined) =>
    p?.kind === "idle" && p.samples.length ? summarize(p.samples).p50 : NaN;
  const ratios = phases.flatMap((p, i) =>
    p.kind === kind ? [summarize(p.samples).p50 / ((idleP50(phases[i - 1]) + idleP50(phases[i + 1])) / 2)] : [],
  );
  if (ratios.length === 0 || ratios.some(Number.isNaN))
    throw new Error(`bench: every ${kind} phase needs samples and an idle phase on each side`);
  return { ratio: round(median(ratios), 3), phases: ratios.map((r) => round(r, 3)) };
}
