// The tuner keeps a change only when the held-in figure improves, and records every decision with before/after figures.
import { describe, expect, it } from "vitest";
import { defaultCognitiveConfig } from "../../src/cognitive/params.ts";
import { knobValue, tune, withKnob } from "../../src/cognitive/tuner.ts";

describe("tune", () => {
  it("keeps improvements, rejects the rest, and logs both", async () => {
    // A made-up metric: best at manas.weight 1, and viveka on; held-out is reported, never used.
    const measure = async (c: typeof defaultCognitiveConfig) => {
      const heldIn = 1 - Math.abs(c.params.manas.weight - 1) + (c.enabled.viveka ? 0.1 : 0);
      return { heldIn, heldOut: heldIn - 0.5 };
    };
    const start = withKnob(withKnob(defaultCognitiveConfig, "manas", "weight", 0.25), "viveka", "enabled", true);
    const { config, decisions, baseline, final } = await tune(
      start,
      [
        { layer: "manas", parameter: "weight", values: [0.5, 1, 2] },
        { layer: "viveka", parameter: "enabled", values: [false] },
      ],
      measure,
      { runId: "t1", metric: "made-up", minGain: 0.001 },
    );
    expect(knobValue(config, "manas", "weight")).toBe(1);
    expect(config.enabled.viveka).toBe(true);
    expect(decisions.map((d) => [d.parameter, d.before, d.after, d.kept])).toEqual([
      ["weight", 0.25, 0.5, true],
      ["weight", 0.5, 1, true],
      ["weight", 1, 2, false],
      ["enabled", true, false, false],
    ]);
    expect(decisions[1]).toMatchObject({
      held_in_before: 0.6,
      held_in_after: 1.1,
      held_out_before: 0.1,
      held_out_after: 0.6,
      run_id: "t1",
    });
    expect(final.heldIn).toBeGreaterThan(baseline.heldIn);
  });

  it("refuses a parameter a layer does not have", () => {
    expect(() => withKnob(defaultCognitiveConfig, "manas", "nonsense", 1)).toThrow(/no parameter/);
  });
});

describe("tune guards", () => {
  it("rejects a change that lifts the mean but drops one part by more than maxDrop, and skips a disabled layer's parameters", async () => {
    const measure = async (c: typeof defaultCognitiveConfig) => {
      const a = c.params.manas.weight; // part a grows with the weight, part b falls faster above 1
      const b = c.params.manas.weight > 1 ? 0.5 : 0.52;
      return { heldIn: (a + b) / 2, heldOut: null, parts: { a, b } };
    };
    const start = withKnob(defaultCognitiveConfig, "chitta", "enabled", false);
    const { decisions } = await tune(
      start,
      [
        { layer: "manas", parameter: "weight", values: [1, 2] },
        { layer: "chitta", parameter: "recency", values: [0.1] },
      ],
      measure,
      { runId: "t2", metric: "m", minGain: 0, maxDrop: 0.01 },
    );
    expect(decisions.map((d) => [d.after, d.kept, d.worst_part ?? null])).toEqual([
      [1, true, null],
      [2, false, "b"],
    ]);
    expect(decisions[1]!.worst_part_change).toBe(-0.02);
  });
});
