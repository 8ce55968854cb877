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
}

export interface TunerOptions {
  runId: string;
  metric: string;
  /** A change must beat the current held-in figure by more than this (noise guard). */
  minGain: number;
  log?: (msg: string) => void;
}

export function knobValue(config: CognitiveConfig, layer: LayerId, parameter: string): number | boolean {
  if (parameter === "enabled") return config.enabled[layer];
  const v = (config.params as unknown as Record<string, Record<string, number> | undefined>)[layer]?.[parameter];
  if (v === undefined) throw new Error(`tuner: ${layer} has no parameter '${parameter}'`);
  return v;
}

export function withKnob(config: CognitiveConfig, layer: LayerId, parameter: string, value: number | boolean): CognitiveConfig {
  if (parameter === "enabled") return { ...config, enabled: { ...config.enabled, [layer]: value as boolean } };
  knobValue(config, layer, parameter);
  const params = config.params as unknown as Record<string, Record<string, number>>;
  return { ...config, params: { ...params, [layer]: { ...params[layer], [parameter]: value as number } } as unknown as CognitiveConfig["params"] };
}

/** Coordinate ascent over the knobs in order; returns the final config and one decision per value tried. */
export async function tune(start: CognitiveConfig, knobs: readonly Knob[], measure: (c: CognitiveConfig) => Promise<Measurement>, opts: TunerOptions): Promise<{ config: CognitiveConfig; baseline: Measurement; final: Measurement; decisions: TunerDecision[] }> {
  let config = start;
  const baseline = await measure(config);
  let current = baseline;
  const decisions: TunerDecision[] = [];
  for (const knob of knobs) {
    for (const value of knob.values) {
      const before = knobValue(config, knob.layer, knob.parameter);
      if (value === before) continue;
      const candidate = withKnob(config, knob.layer, knob.parameter, value);
      const m = await measure(candidate);
      const kept = m.heldIn > current.heldIn + opts.minGain;
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
      });
      opts.log?.(`${knob.layer}.${knob.parameter} ${String(before)} -> ${String(value)}: held-in ${current.heldIn.toFixed(4)} -> ${m.heldIn.toFixed(4)} ${kept ? "KEPT" : "rejected"}`);
      if (kept) {
        config = candidate;
        current = m;
      }
    }
  }
  return { config, baseline, final: current, decisions };
}

const round = (x: number) => Number(x.toFixed(4));
