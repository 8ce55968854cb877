// Whose event the evidence tells (issue 40): the asked event told as the other participant's account withholds the answer.
import { describe, expect, it } from "vitest";
import { eventElsewhere } from "../../src/domain/answering/event-owner.ts";

const CHEERS = "Caroline: That charity race sounds great! I'm really proud of you for taking part.";
const RAN = "Melanie: Thanks, Caroline! I ran a charity race for mental health last Saturday.";
const REALIZE = "Melanie: After the race I started to realize that self-care is really important.";
const PAINT = "Caroline: I painted a lake at sunrise last week.";
const chat = [CHEERS, RAN, REALIZE, PAINT];

describe("eventElsewhere", () => {
  it("is 1 when the event is told as the other participant's own account", () => {
    expect(eventElsewhere("What did Caroline realize after her charity race?", chat)).toBe(1);
  });

  it("is 0 when the event is the named participant's own", () => {
    expect(eventElsewhere("What did Melanie realize after her charity race?", chat)).toBe(0);
    expect(eventElsewhere("What did Caroline paint at sunrise?", chat)).toBe(0);
  });

  it("reads a second-person sentence as the listener's account", () => {
    const toMel = [
      "Caroline: You ran a charity race for mental health, amazing!",
      "Melanie: Thanks! The weather was kind.",
    ];
    expect(eventElsewhere("Which race did Caroline run for mental health?", toMel)).toBe(1);
    expect(eventElsewhere("Which race did Melanie run for mental health?", toMel)).toBe(0);
  });

  it("is 0 when the question names no participant, both, or the evidence is no two-person chat", () => {
    expect(eventElsewhere("Who ran a charity race?", chat)).toBe(0);
    expect(eventElsewhere("What did Caroline and Melanie talk about?", chat)).toBe(0);
    expect(eventElsewhere("What did Alice pick?", ["I picked PostgreSQL in March.", "We moved the cluster."])).toBe(0);
  });

  it("is 0 when no account of the other tells enough of the event", () => {
    expect(eventElsewhere("What did Caroline bake for the school fair?", chat)).toBe(0);
  });
});
