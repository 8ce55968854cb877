// Time expressions resolved against fixed reference times: each family, week starts, month ends, leap days, offsets.
import { describe, expect, it } from "vitest";
import { findTimeExpressions, type Reference } from "../../src/domain/time/expressions.ts";

const at = (iso: string, offsetMinutes = 0): Reference => ({ instant: Date.parse(iso), offsetMinutes });
const day = (ms: number) => new Date(ms).toISOString();
/** [words, granularity, label, from, to] of each expression found. */
const read = (text: string, ref: Reference) =>
  findTimeExpressions(text, ref).map((a) => [a.text, a.granularity, a.label, day(a.from), day(a.to)]);
const MONDAY = at("2023-05-08T13:56:00Z"); // Monday 8 May 2023

describe("time expressions", () => {
  it("reads days relative to the reference: yesterday, weekdays, N days ago", () => {
    expect(read("I went to the support group yesterday.", MONDAY)).toEqual([
      ["yesterday", "day", "7 May 2023", "2023-05-07T00:00:00.000Z", "2023-05-08T00:00:00.000Z"],
    ]);
    expect(read("Last Friday I ran a race; three days ago I rested.", MONDAY).map((r) => r[2])).toEqual([
      "5 May 2023",
      "5 May 2023",
    ]);
  });

  it("reads weeks as seven days before the reference or as ISO weeks starting on Monday", () => {
    const sunday = at("2023-05-14T10:00:00Z");
    expect(read("last week", sunday)[0]!.slice(1)).toEqual([
      "week",
      "the week before 14 May 2023",
      "2023-05-07T00:00:00.000Z",
      "2023-05-14T00:00:00.000Z",
    ]);
    expect(read("this week", sunday)[0]!.slice(3)).toEqual(["2023-05-08T00:00:00.000Z", "2023-05-15T00:00:00.000Z"]);
    expect(read("next week", MONDAY)[0]!.slice(3)).toEqual(["2023-05-15T00:00:00.000Z", "2023-05-22T00:00:00.000Z"]);
    expect(read("two weeks ago", MONDAY)[0]!.slice(2)).toEqual([
      "two weeks before 8 May 2023",
      "2023-04-24T00:00:00.000Z",
      "2023-05-01T00:00:00.000Z",
    ]);
  });

  it("reads weekends: the one before, this one, N ago, and on a weekend day the one before this one", () => {
    expect(read("last weekend", MONDAY)[0]!.slice(3)).toEqual(["2023-05-06T00:00:00.000Z", "2023-05-08T00:00:00.000Z"]);
    expect(read("last weekend", at("2023-05-07T12:00:00Z"))[0]!.slice(3)).toEqual([
      "2023-04-29T00:00:00.000Z",
      "2023-05-01T00:00:00.000Z",
    ]);
    expect(read("this weekend", MONDAY)[0]!.slice(3)).toEqual(["2023-05-13T00:00:00.000Z", "2023-05-15T00:00:00.000Z"]);
    expect(read("two weekends ago", MONDAY)[0]!.slice(2, 4)).toEqual([
      "two weekends before 8 May 2023",
      "2023-04-29T00:00:00.000Z",
    ]);
  });

  it("reads months and years, relative and absolute", () => {
    const newYearsEve = at("2023-12-31T20:00:00Z");
    expect(read("next month", newYearsEve)[0]!.slice(1)).toEqual([
      "month",
      "January 2024",
      "2024-01-01T00:00:00.000Z",
      "2024-02-01T00:00:00.000Z",
    ]);
    expect(read("I moved there in 2022.", MONDAY)[0]!.slice(0, 3)).toEqual(["2022", "year", "2022"]);
    expect(read("a friend made it ten years ago", MONDAY)[0]![2]).toBe("2013");
    expect(read("we met in March 2021", MONDAY)[0]!.slice(1, 3)).toEqual(["month", "March 2021"]);
  });

  it("reads abbreviated weekdays and months after relative words, as their full names", () => {
    expect(read("I joined a new activist group last Tues.", MONDAY)).toEqual([
      ["last Tues", "day", "2 May 2023", "2023-05-02T00:00:00.000Z", "2023-05-03T00:00:00.000Z"],
    ]);
    expect(read("see you next Weds", MONDAY)[0]!.slice(2)).toEqual(read("see you next Wednesday", MONDAY)[0]!.slice(2));
    // A month after "last" is the latest one before the reference's month, after "next" the first after it.
    expect(read("We met last Sept at the fair.", MONDAY)).toEqual([
      ["last Sept", "month", "September 2022", "2022-09-01T00:00:00.000Z", "2022-10-01T00:00:00.000Z"],
    ]);
    expect(read("Last August I told you", MONDAY)[0]![2]).toBe("August 2022");
    expect(read("last March", MONDAY)[0]![2]).toBe("March 2023");
    expect(read("last May", MONDAY)[0]![2]).toBe("May 2022");
    expect(read("next May", MONDAY)[0]![2]).toBe("May 2024");
    expect(read("next Jan", at("2023-12-31T20:00:00Z"))[0]!.slice(2)).toEqual([
      "January 2024",
      "2024-01-01T00:00:00.000Z",
      "2024-02-01T00:00:00.000Z",
    ]);
    expect(read("last Feb", at("2024-03-01T09:00:00Z"))[0]![4]).toBe("2024-03-01T00:00:00.000Z"); // 29 days
    // The reference's month is the speaker's: 1 January in UTC is still December in UTC-5.
    expect(read("last Dec", at("2024-01-01T01:30:00Z", -300))[0]![2]).toBe("December 2022");
    expect(read("last Dec", at("2024-01-01T01:30:00Z"))[0]![2]).toBe("December 2023");
    // The modal verb is not a month.
    expect(read("This may take a while, at last may it end", MONDAY)).toEqual([]);
    // Nor is the noun "march"; the month is still read capitalised or with a day.
    expect(read("the last march of the season, their next march", MONDAY)).toEqual([]);
    expect(read("next March", MONDAY)[0]![2]).toBe("March 2024");
    expect(read("we met on march 3, 2023", MONDAY)[0]![2]).toContain("March 2023");
  });

  it("gets month ends and leap days right", () => {
    expect(read("by the end of the month", at("2024-02-10T09:00:00Z"))[0]![2]).toBe("29 February 2024");
    expect(read("by the end of the month", at("2023-02-10T09:00:00Z"))[0]![2]).toBe("28 February 2023");
    expect(read("tomorrow", at("2024-02-28T09:00:00Z"))[0]![2]).toBe("29 February 2024");
    expect(read("tomorrow", at("2023-02-28T09:00:00Z"))[0]![2]).toBe("1 March 2023");
    expect(read("next month", at("2024-01-31T09:00:00Z"))[0]!.slice(2)).toEqual([
      "February 2024",
      "2024-02-01T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
    ]);
  });

  it("resolves against the speaker's local day when the reference carries an offset", () => {
    const lateUtc = "2023-05-07T23:30:00Z"; // 01:30 on 8 May in UTC+2, 18:30 on 7 May in UTC-5
    expect(read("yesterday", at(lateUtc, 120))[0]!.slice(2)).toEqual([
      "7 May 2023",
      "2023-05-06T22:00:00.000Z",
      "2023-05-07T22:00:00.000Z",
    ]);
    expect(read("yesterday", at(lateUtc, -300))[0]!.slice(2)).toEqual([
      "6 May 2023",
      "2023-05-06T05:00:00.000Z",
      "2023-05-07T05:00:00.000Z",
    ]);
  });

  it("keeps spans literal and leaves out clock times and durations", () => {
    const text = "Caroline: I'll call at 5pm. I was sick for three days, then last Saturday I felt fine.";
    const found = findTimeExpressions(text, MONDAY);
    expect(found.map((a) => a.text)).toEqual(["last Saturday"]);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe("last Saturday");
    expect(found[0]!.relative).toBe(true);
    expect(findTimeExpressions("On 29 February 2024 we shipped.", MONDAY)[0]!.relative).toBe(false);
  });
});
