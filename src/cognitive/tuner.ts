// The automatic tuner: tries one parameter change at a time, keeps it only when the held-in metric improves, records every decision.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { CognitiveConfig } from "./params.ts";
import type { TunerDecision } from "./records.ts";

/** A knob: a layer's switch ("enabled") or one of its numeric parameters, and the values to try. */
export interface Knob {
  layer: LayerId;
  parameter: string;
  values: readonly (number | boolean)[];
}

/** A config's figure on the split that decides (held-in) and on the one only reported (held-out). */
export interface Measurement {
  heldIn: number;
  heldOut: number | null;
  /** The held-in figure's components (one per eval set): none may drop by more than maxDrop. */
  parts?: Record<string, number>;
}

export interface TunerOptions {
  runId: string;
  metric: string;
  /** A change must beat the current held-in figure by more than this (noise guard). */
  minGain: number;
  /** ...and may not lower any held-in part by more than this (protects each set's baseline); default: no limit. */
  maxDrop?: number;
  log?: (msg: string) => void;
}

export function knobValue(config: CognitiveConfig, layer: LayerId, parameter: string): number | boolean {
  if (parameter === "enabled") return config.enabled[layer];
  const v = (config.params as unknown as Record<string, Record<string, number> | undefined>)[layer]?.[parameter];
  if (v === undefined) throw new Error(`tuner: ${layer} has no parameter '${parameter}'`);
  return v;
}

export function withKnob(
  config: CognitiveConfig,
  layer: LayerId,
  parameter: string,
  value: number | boolean,
): CognitiveConfig {
  if (parameter === "enabled") return { ...config, enabled: { ...config.enabled, [layer]: value as boolean } };
  knobValue(config, layer, parameter);
  const params = config.params as unknown as Record<string, Record<string, number>>;
  return {
    ...config,
    params: {
      ...params,
      [layer]: { ...params[layer], [parameter]: value as number },
    } as unknown as CognitiveConfig["params"],
  };
}

/** Coordinate ascent over the knobs in order; returns the final config and one decision per value tried. */
export async function tune(
  start: CognitiveConfig,
  knobs: readonly Knob[],
  measure: (c: CognitiveConfig) => Promise<Measurement>,
  opts: TunerOptions,
): Promise<{ config: CognitiveConfig; baseline: Measurement; final: Measurement; decisions: TunerDecision[] }> {
  let config = start;
  const baseline = await measure(config);
  let current = baseline;
  const decisions: TunerDecision[] = [];
  for (const knob of knobs) {
    for (const value of knob.values) {
      const before = knobValue(config, knob.layer, knob.parameter);
      // A switched-off layer's parameters change nothing: trying them would only record noise.
      if (value === before || (knob.parameter !== "enabled" && !config.enabled[knob.layer])) continue;
      const candidate = withKnob(config, knob.layer, knob.parameter, value);
      const m = await measure(candidate);
      const drop = worstDrop(current.parts, m.parts);
      const kept = m.heldIn > current.heldIn + opts.minGain && drop.by <= (opts.maxDrop ?? Infinity);
      decisions.push({
        run_id: opts.runId,
        layer: knob.layer,
        parameter: knob.parameter,
        before,
        after: value,
        metric: opts.metric,
        held_in_before: round(current.heldIn),
        held_in_after: round(m.heldIn),
        held_out_before: current.heldOut === null ? null : round(current.heldOut),
        held_out_after: m.heldOut === null ? null : round(m.heldOut),
        kept,
        ...(drop.part ? { worst_part: drop.part, worst_part_change: round(-drop.by) } : {}),
      });
      opts.log?.(
        `${knob.layer}.${knob.parameter} ${String(before)} -> ${String(value)}: held-in ${current.heldIn.toFixed(4)} -> ${m.heldIn.toFixed(4)} ${kept ? "KEPT" : "rejected"}`,
      );
      if (kept) {
        config = candidate;
        current = m;
      }
    }
  }
  return { config, baseline, final: current, decisions };
}

/** The part that fell most from `before` to `after`, and by how much (0 when none fell). */
function worstDrop(
  before: Record<string, number> | undefined,
  after: Record<string, number> | undefined,
): { part: string | null; by: number } {
  let worst: { part: string | null; by: number } = { part: null, by: 0 };
  for (const [k, v] of Object.entries(after ?? {})) {
    const by = (before?.[k] ?? v) - v;
    if (by > worst.by) worst = { part: k, by };
  }
  return worst;
}

const round = (x: number) => Number(x.toFixed(4));
