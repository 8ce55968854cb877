// Which questions ask a value's present state, and which statements give that value (issue 45 item 4).
import { describe, expect, it } from "vitest";
import { askedValue, asksPresentState } from "../../src/domain/time/current-values.ts";

describe("questions about the present state", () => {
  it("reads a word for now, or present tense without a word for before", () => {
    for (const q of [
      "How many tops have I bought from H&M so far?",
      "What is my current record in the league?",
      "How often do I play tennis now?",
      "How many children does Melanie have?",
      "How often did I swim before? How often do I swim now?",
    ])
      expect(asksPresentState(q), q).toBe(true);
    for (const q of [
      "What was my previous personal best?",
      "How many bass did I catch on the trip?",
      "How often do I play tennis previously?",
      "What did Caroline do in May 2023?",
    ])
      expect(asksPresentState(q), q).toBe(false);
  });

  it("finds the value of the kind asked in a sentence about the question's subject", () => {
    const tops = askedValue("How many tops have I bought from H&M so far?")!;
    expect(tops("I've already got five tops from H&M so far, and I'm getting more.")).toEqual({
      speaker: null,
      value: "five",
    });
    expect(tops("Maria: I bought 3 tops at H&M.")).toEqual({ speaker: "Maria", value: "3" });
    // Another subject, another kind of value, or a number that counts nothing.
    expect(tops("I've read five books this summer.")).toBeNull();
    expect(tops("We went to H&M every week for tops.")).toBeNull();
    expect(tops("H&M tops: I bought 5.")).toBeNull();
    const tennis = askedValue("How often do I play tennis with my friends now?")!;
    expect(tennis("I play tennis with my friends every other week.")?.value).toBe("every other week");
    expect(
      askedValue("What is my current record in the volleyball league?")!("In the volleyball league we're 5-2!"),
    ).toEqual({ speaker: null, value: "5-2" });
  });

  it("asks nothing of a question about before, a total, or one whose kind of value it cannot name", () => {
    expect(askedValue("How many tops had I bought from H&M before the sale?")).toBeNull();
    expect(askedValue("What is the total number of online courses I've completed?")).toBeNull();
    expect(askedValue("Where do I live now?")).toBeNull();
  });
});
