// Confidence evidence: the question's names in the cited chunk, rival sentences, and the whole-sentence flag in the plan.
import { describe, expect, it } from "vitest";
import { namesFound, standsAlone } from "../../src/domain/answering/answer-confidence.ts";
import { planAnswer } from "../../src/domain/answering/answer.ts";

describe("namesFound", () => {
  it("counts the question's names (not its opening word) found in the text", () => {
    expect(namesFound("When did Ada Berg leave Oslo?", "Ada Berg left in 1990.")).toBeCloseTo(2 / 3);
    expect(namesFound("what is the capital?", "anything")).toBe(1);
  });
  it("finds a name as the start of a longer word, for names of five letters or more", () => {
    expect(namesFound("What lives in the Amazon forest?", "Amazonian forests hold many species.")).toBe(1);
    expect(namesFound("Where did Jon go?", "Jonas went home.")).toBe(0);
  });
});

describe("standsAlone", () => {
  it("is 1 over the sentences within 0.8 of the best score", () => {
    expect(standsAlone(1, [1, 0.5, 0.2])).toBe(1);
    expect(standsAlone(1, [1, 0.9, 0.85, 0.1])).toBeCloseTo(1 / 3);
    expect(standsAlone(0, [0, 0])).toBe(0);
    expect(standsAlone(1, [1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9])).toBe(1); // rivals past the 8 best sentences do not count
  });
});

describe("planAnswer confidence features", () => {
  it("flags a whole-sentence answer and a lone best sentence", () => {
    const why = planAnswer("Why did the bridge close?", [
      { key: 1, text: "The bridge closed because of a flood. Tourists like the view.", score: 0.8 },
    ]);
    expect(why.features.whole).toBe(1);
    expect(why.features.alone).toBe(1);
    const when = planAnswer("When did the bridge close?", [
      { key: 1, text: "The bridge closed in 1998. Tourists like the view.", score: 0.8 },
    ]);
    expect(when.features.whole).toBe(0);
  });
  it("sees near-ties as less alone", () => {
    const plan = planAnswer("When did the bridge close?", [
      { key: 1, text: "The bridge closed in 1998.", score: 0.8 },
      { key: 2, text: "The bridge closed in 2004.", score: 0.8 },
    ]);
    expect(plan.features.alone).toBeCloseTo(0.5);
  });
});
