// The reliability table and ECE of the answer eval (eval/answers/trust.ts), and the kind check the answerer holds spans to.
import { describe, expect, it } from "vitest";
import { reliability } from "../../eval/answers/trust.ts";
import { hasAskedKind } from "../../src/domain/answering/answer-kind.ts";

describe("reliability", () => {
  it("bins by confidence and weighs each bin's gap by its share", () => {
    const pairs = [
      { confidence: 0.1, right: false },
      { confidence: 0.1, right: false },
      { confidence: 0.9, right: true },
      { confidence: 0.95, right: false },
      { confidence: 1, right: true },
    ];
    const { bins, ece } = reliability(pairs);
    expect(bins.map((b) => b.n)).toEqual([2, 0, 0, 0, 3]);
    expect(bins[4]!.right).toBeCloseTo(2 / 3, 10);
    // (2/5) x |0 - 0.1| + (3/5) x |2/3 - 0.95|
    expect(ece).toBeCloseTo(0.4 * 0.1 + 0.6 * Math.abs(2 / 3 - 0.95), 10);
  });

  it("is 0 when every bin's share right equals its mean confidence", () => {
    expect(
      reliability([
        { confidence: 0.5, right: true },
        { confidence: 0.5, right: false },
      ]).ece,
    ).toBe(0);
  });
});

describe("hasAskedKind", () => {
  it.each([
    ["Alice Chen", "person", true],
    ["March", "person", false],
    ["March 2024", "person", false],
    ["the platform team", "person", false],
    ["eu-west-2", "place", true],
    ["Monday", "place", false],
    ["Monday", "date", true],
    ["eu-west-2", "date", false],
    ["four lighthouses", "number", true],
    ["the harbour", "number", false],
  ] as const)("%s as %s: %s", (text, kind, expected) => {
    expect(hasAskedKind(text, kind)).toBe(expected);
  });
});
