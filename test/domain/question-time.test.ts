// The times a question names, and which evidence is about them (said then, or naming a time that falls then).
import { describe, expect, it } from "vitest";
import { aboutTimes, questionTimes } from "../../src/domain/time/question-time.ts";

const day = (iso: string) => Date.parse(iso);

describe("question times", () => {
  it("reads absolute periods and yearless months or days, and leaves out other relative words", () => {
    expect(questionTimes("What did Gina find on 1 February, 2023?")).toEqual([
      { from: day("2023-02-01T00:00:00Z"), to: day("2023-02-02T00:00:00Z") },
    ]);
    expect(questionTimes("How often did Melanie go to the beach in 2023?")).toEqual([
      { from: day("2023-01-01T00:00:00Z"), to: day("2024-01-01T00:00:00Z") },
    ]);
    expect(questionTimes("When did Melanie go camping in June?")).toEqual([{ month: 6 }]);
    expect(questionTimes("What did they see on the trip last year?")).toEqual([]);
    expect(questionTimes("Why did the build fail?")).toEqual([]);
  });

  it("matches evidence said within the period, or naming a time within it", () => {
    const june = questionTimes("camping in June 2023");
    expect(aboutTimes(june, "We went camping.", day("2023-06-20T10:00:00Z"))).toBe(true);
    expect(aboutTimes(june, "We went camping last week.", day("2023-07-12T10:00:00Z"))).toBe(false);
    expect(aboutTimes(june, "We went camping two weeks ago.", day("2023-07-12T10:00:00Z"))).toBe(true);
    expect(aboutTimes([{ month: 6 }], "We went camping.", day("2021-06-02T10:00:00Z"))).toBe(true);
    expect(aboutTimes([{ month: 6 }], "We went camping.", day("2021-07-02T10:00:00Z"))).toBe(false);
  });
});
