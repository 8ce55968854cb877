// The statement detector (issue 45 item 4): a later sentence giving another value of the same thing replaces the earlier.
import { describe, expect, it } from "vitest";
import { detectReplacements, type Statement } from "../../src/domain/time/changed-facts.ts";

const DAY = 86_400_000;
const said = (...texts: string[]): Statement[] => texts.map((text, i) => ({ id: i, text, at: i * DAY }));
const pairs = (statements: Statement[]) => detectReplacements(statements).map((r) => [r.oldId, r.newId]);

describe("detectReplacements", () => {
  it("finds a new count, a new measure and a new frequency of the same thing, and the sentences that say so", () => {
    const statements = said(
      "I love their summer collection. I've already bought three tops from H&M.",
      "By the way, I've already got five tops from H&M so far.",
    );
    const [r] = detectReplacements(statements);
    expect(r).toMatchObject({ oldId: 0, newId: 1 });
    expect(statements[0]!.text.slice(r!.oldSpan.start, r!.oldSpan.end)).toBe(
      "I've already bought three tops from H&M.",
    );
    expect(
      pairs(
        said(
          "I found that 1 tablespoon of coffee for every 6 ounces of water is the perfect ratio for my French press.",
          "My French press ratio is down to a science: 1 tablespoon of coffee for every 5 ounces of water.",
        ),
      ),
    ).toEqual([[0, 1]]);
    expect(
      pairs(
        said(
          "It reminds me of my own weekly tennis sessions with friends at the local park.",
          "I'll play tennis with my friends at the local park this Sunday, like we do every other week.",
        ),
      ),
    ).toEqual([[0, 1]]);
  });

  it("links each statement to its latest replacement along a chain, whatever order they come in", () => {
    const chain = said(
      "Our volleyball team has a 3-2 record in the league so far.",
      "Our volleyball team has a 5-2 record in the league now.",
      "Our volleyball team has a 7-2 record in the league after tonight.",
    ).reverse();
    expect(pairs(chain).sort()).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(pairs(chain).sort()).not.toContainEqual([0, 0]);
  });

  it("leaves alone the same value, other units, dates, money, durations with little in common and other speakers", () => {
    expect(pairs(said("I meditate 10 minutes every morning.", "I meditate for 10 minutes every morning."))).toEqual([]);
    expect(
      pairs(said("I finished 8 edX courses in data analysis.", "I finished 12 Coursera courses in data analysis.")),
    ).toEqual([]);
    expect(
      pairs(
        said(
          "I flew to Paris with Anna on 7/10 for the jazz festival.",
          "I flew to Paris with Anna on 7/22 for the jazz festival.",
        ),
      ),
    ).toEqual([]);
    expect(pairs(said("The resort in Maui costs $300 per night.", "The hostel in Tokyo costs $30 per night."))).toEqual(
      [],
    );
    expect(
      pairs(said("I have been doing yoga for 3 months now.", "I have been in this role for 5 months now.")),
    ).toEqual([]);
    expect(
      pairs(
        said(
          "Caroline: We adopted three cats from the shelter downtown.",
          "Melanie: We adopted two cats from the shelter downtown.",
        ),
      ),
    ).toEqual([]);
    expect(
      pairs(
        said(
          "Caroline: We adopted three cats from the shelter downtown.",
          "Caroline: We adopted four cats from the shelter downtown.",
        ),
      ),
    ).toEqual([[0, 1]]);
  });

  it("never has an earlier statement replace a later one", () => {
    const same = [
      { id: 0, text: "I own three bikes for my commute to work.", at: 5 * DAY },
      { id: 1, text: "I own four bikes for my commute to work.", at: DAY },
    ];
    expect(pairs(same)).toEqual([[1, 0]]);
    expect(pairs(same.map((s) => ({ ...s, at: DAY })))).toEqual([]);
  });
});
