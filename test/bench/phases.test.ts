import { describe, expect, it } from "vitest";
import { bracketed, type Phase } from "../../bench/lib/phases.ts";

const phase = <K extends string>(kind: K | "idle", p50: number): Phase<K> => ({
  kind,
  samples: [p50 * 0.9, p50, p50 * 1.5],
});

describe("bracketed", () => {
  it("reads each busy phase against its own idle neighbours, so a baseline that drifts over the run cancels", () => {
    // The idle p50 falls from 4 to 1 over the run; every busy phase is 10% above the idle ones around it.
    const phases = [
      phase("idle", 4),
      phase("busy", 3.3),
      phase("idle", 2),
      phase("busy", 1.65),
      phase("idle", 1),
      phase("busy", 1.1),
      phase("idle", 1),
    ];
    expect(bracketed(phases, "busy")).toEqual({ ratio: 1.1, phases: [1.1, 1.1, 1.1] });
    // Pooled, the same samples would read the busy phases as cheaper than idle.
    const pooled = (kind: string) =>
      phases
        .filter((p) => p.kind === kind)
        .flatMap((p) => p.samples)
        .sort((a, b) => a - b);
    expect(pooled("busy")[4]! / pooled("idle")[6]!).toBeLessThan(1);
  });

  it("takes the median over the phases, so one phase in a slow spell does not move it", () => {
    const phases = [
      phase("idle", 1),
      phase("busy", 1.05),
      phase("idle", 1),
      phase("busy", 3),
      phase("idle", 1),
      phase("busy", 1.07),
      phase("idle", 1),
    ];
    expect(bracketed(phases, "busy")).toEqual({ ratio: 1.07, phases: [1.05, 3, 1.07] });
  });

  it("only counts the kind asked for, and refuses a busy phase without an idle one on each side", () => {
    const phases = [phase("idle", 1), phase("busy", 1.2), phase("idle", 1), phase("spin", 1.4), phase("idle", 1)];
    expect(bracketed(phases, "spin").phases).toEqual([1.4]);
    expect(() => bracketed([phase("idle", 1), phase("busy", 1), phase("spin", 1), phase("idle", 1)], "busy")).toThrow(
      /idle phase on each side/,
    );
    expect(() => bracketed([phase("idle", 1)], "busy")).toThrow();
  });
});
