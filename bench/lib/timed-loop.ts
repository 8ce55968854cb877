// Runs an operation once per input, sequentially, timing each call (wall) and the whole loop (process CPU).
import { round } from "./stats.ts";

export interface LoopLimits {
  /** Stop after this long once `minCount` calls are done (keeps a slow build's bench bounded). */
  maxSeconds?: number;
  minCount?: number;
}

export interface LoopResult {
  samples: number[];
  /** Process CPU (user + system) per call: unlike wall time, barely moved by other load on the machine. */
  cpuMsPerOp: number;
  /** True when the time limit cut the loop short of its inputs. */
  truncated: boolean;
}

export async function timedLoop<T>(
  inputs: readonly T[],
  fn: (input: T) => Promise<unknown>,
  limits: LoopLimits = {},
): Promise<LoopResult> {
  const samples: number[] = [];
  const deadline = performance.now() + (limits.maxSeconds ?? Infinity) * 1000;
  const cpu0 = process.cpuUsage();
  for (const input of inputs) {
    if (samples.length >= (limits.minCount ?? 0) && performance.now() > deadline) break;
    const t0 = performance.now();
    await fn(input);
    samples.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    samples,
    cpuMsPerOp: round((cpu.user + cpu.system) / 1000 / Math.max(1, samples.length)),
    truncated: samples.length < inputs.length,
  };
}
