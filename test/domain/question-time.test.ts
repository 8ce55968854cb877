// The times a question names, read against when it is asked, and which evidence is about them (said then, or naming a
// time that falls then).
import { describe, expect, it } from "vitest";
import { aboutTimes, askedReadings, questionTimes } from "../../src/domain/time/question-time.ts";

const at = (iso: string) => Date.parse(iso);
const asked = (iso: string, offsetMinutes = 0) => ({ instant: at(iso), offsetMinutes });
/** The one period a question's words point at, as ISO days (or instants when they do not fall on UTC midnight). */
function period(question: string, when: { instant: number; offsetMinutes: number }): [string, string] {
  const targets = questionTimes(question, when);
  expect(targets).toHaveLength(1);
  const t = targets[0]!;
  if (!("from" in t)) throw new Error(`no period: ${JSON.stringify(t)}`);
  const iso = (ms: number) => new Date(ms).toISOString().replace("T00:00:00.000Z", "");
  return [iso(t.from), iso(t.to)];
}
const wednesday = asked("2023-02-01T08:41:00Z"); // LongMemEval's "art event two weeks ago" was asked then

describe("question times", () => {
  it("reads absolute periods and yearless months or days as written, whenever asked", () => {
    expect(questionTimes("What did Gina find on 1 February, 2023?", wednesday)).toEqual([
      { from: at("2023-02-01T00:00:00Z"), to: at("2023-02-02T00:00:00Z") },
    ]);
    expect(questionTimes("How often did Melanie go to the beach in 2023?", asked("2030-06-01T00:00:00Z"))).toEqual([
      { from: at("2023-01-01T00:00:00Z"), to: at("2024-01-01T00:00:00Z") },
    ]);
    expect(questionTimes("When did Melanie go camping in June?", wednesday)).toEqual([{ month: 6 }]);
    expect(questionTimes("Why did the build fail?", wednesday)).toEqual([]);
  });

  it("names no period with 'now', a bare 'night' or a bare weekday", () => {
    expect(questionTimes("How often do I play tennis now?", wednesday)).toEqual([]);
    expect(questionTimes("How much did I spend per night in Tokyo?", wednesday)).toEqual([]);
    expect(questionTimes("What did I cook on Saturday?", wednesday)).toEqual([]);
  });

  it("widens a count back by half its distance either side", () => {
    expect(period("the art event two weeks ago", wednesday)).toEqual(["2023-01-11", "2023-01-26"]);
    expect(period("what did I buy three days ago", wednesday)).toEqual(["2023-01-27", "2023-02-01"]);
    expect(period("a week ago", wednesday)).toEqual(["2023-01-21", "2023-01-30"]);
    // Months and years count from the asking day's own month or year: 4 years (1461 days) before 15 February 2023, 731 days either side.
    expect(period("Where did Caroline move from 4 years ago?", asked("2023-02-15T10:00:00Z"))).toEqual([
      "2017-02-14",
      "2021-02-16",
    ]);
  });

  it("reads a named period as itself and a day either side: days, weekends, week starts, month ends, leap days", () => {
    expect(period("what did I do yesterday", wednesday)).toEqual(["2023-01-30", "2023-02-02"]);
    // Asked on Monday 12 June 2023: last weekend is 10-11 June; this week starts that Monday, last week is the 7 days before.
    const monday = asked("2023-06-12T09:00:00Z");
    expect(period("What cocktail did I try last weekend?", monday)).toEqual(["2023-06-09", "2023-06-13"]);
    expect(period("what did I do this week", monday)).toEqual(["2023-06-11", "2023-06-20"]);
    expect(period("what did I do last week", monday)).toEqual(["2023-06-04", "2023-06-13"]);
    // Asked on Sunday 11 June, this week is still the one that started on Monday 5 June.
    expect(period("what did I do this week", asked("2023-06-11T20:00:00Z"))).toEqual(["2023-06-04", "2023-06-13"]);
    expect(period("what did I read last month", asked("2023-03-31T12:00:00Z"))).toEqual(["2023-01-31", "2023-03-02"]);
    expect(period("what did I plan for next month", asked("2023-01-31T12:00:00Z"))).toEqual([
      "2023-01-31",
      "2023-03-02",
    ]);
    expect(period("what did I eat yesterday", asked("2024-03-01T12:00:00Z"))).toEqual(["2024-02-28", "2024-03-02"]);
    expect(period("what did I do last year", wednesday)).toEqual(["2021-12-31", "2023-01-02"]);
  });

  it("runs a span back up to the end of the asking day", () => {
    expect(period("Which store did I spend most at in the past month?", asked("2023-02-15T10:00:00Z"))).toEqual([
      "2022-12-31",
      "2023-02-16",
    ]);
    expect(period("what did I buy in the last month", asked("2023-02-15T10:00:00Z"))).toEqual([
      "2022-12-31",
      "2023-02-16",
    ]);
    expect(period("what did I buy last month", asked("2023-02-15T10:00:00Z"))).toEqual(["2022-12-31", "2023-02-02"]);
    expect(period("the last month of the season", asked("2023-02-15T10:00:00Z"))).toEqual(["2022-12-31", "2023-02-02"]);
    expect(period("jewelry I got in the last two months", asked("2023-02-15T10:00:00Z"))).toEqual([
      "2022-11-30",
      "2023-02-16",
    ]);
  });

  it("reads days at the asking time's offset", () => {
    // 01:30 on 8 May at UTC+2 is still 7 May in UTC: "yesterday" is 7 May there, 6 May in UTC.
    const east = questionTimes("what did I do yesterday", asked("2023-05-07T23:30:00Z", 120));
    expect(east).toEqual([{ from: at("2023-05-05T22:00:00Z"), to: at("2023-05-08T22:00:00Z") }]);
    expect(period("what did I do yesterday", asked("2023-05-07T23:30:00Z"))).toEqual(["2023-05-05", "2023-05-08"]);
  });

  it("says in words what the relative words were read as", () => {
    expect(askedReadings("what did I eat yesterday", asked("2024-03-01T12:00:00Z"))).toEqual([
      "'yesterday' read as 28 February 2024 - 1 March 2024 (asked on 1 March 2024; see asked_at)",
    ]);
    expect(askedReadings("the art event two weeks ago, in 2023", wednesday)).toEqual([
      "'two weeks ago' read as 11-25 January 2023 (asked on 1 February 2023; see asked_at)",
    ]);
    expect(askedReadings("What did I do in June 2023?", wednesday)).toEqual([]);
  });

  it("counts evidence said within the period, and naming a time within it", () => {
    const june = questionTimes("camping in June 2023", wednesday);
    expect(aboutTimes(june, "We went camping.", at("2023-06-20T10:00:00Z"))).toBe(1);
    expect(aboutTimes(june, "We went camping yesterday.", at("2023-06-20T10:00:00Z"))).toBe(2);
    expect(aboutTimes(june, "We went camping last week.", at("2023-07-12T10:00:00Z"))).toBe(0);
    expect(aboutTimes(june, "We went camping two weeks ago.", at("2023-07-12T10:00:00Z"))).toBe(1);
    expect(aboutTimes([{ month: 6 }], "We went camping.", at("2023-06-02T10:00:00Z"))).toBe(1);
    expect(aboutTimes([{ month: 6 }], "We went camping.", at("2021-07-02T10:00:00Z"))).toBe(0);
    const art = questionTimes("the art-related event two weeks ago", wednesday);
    expect(aboutTimes(art, "I was at the Metropolitan Museum of Art today.", at("2023-01-15T14:00:00Z"))).toBe(2);
    expect(aboutTimes(art, "I was at the Metropolitan Museum of Art.", at("2023-01-15T14:00:00Z"))).toBe(1);
    expect(aboutTimes(art, "I was at the Metropolitan Museum of Art today.", at("2023-01-05T14:00:00Z"))).toBe(0);
  });
});
