// The asked kind holds the answer: a capital by position is no name, and a weak sentence does not answer for its span's kind.
import { describe, expect, it } from "vitest";
import { hasAskedKind, namedByPosition } from "../../src/domain/answering/answer-kind.ts";
import { planAnswer } from "../../src/domain/answering/answer.ts";
import { readsAsName } from "../../src/nlp/compromise-names.ts";
import { posTags } from "../../src/nlp/wink-tagger.ts";

const spanOf = (sentence: string, word: string) => ({
  start: sentence.indexOf(word),
  end: sentence.indexOf(word) + word.length,
});

describe("namedByPosition", () => {
  it("takes a sentence-opening word as a name only where it reads as one (not an adjective or a role noun)", () => {
    const open = "Open question: who pays for the extra brokers?";
    expect(hasAskedKind("Open", "person")).toBe(true); // the pattern alone cannot tell
    expect(namedByPosition(open, spanOf(open, "Open"), readsAsName)).toBe(false);
    const alice = "Alice picked PostgreSQL for the ledger.";
    expect(namedByPosition(alice, spanOf(alice, "Alice"), readsAsName)).toBe(true);
  });

  it("passes names inside the sentence, names of several words, and everything without a reader", () => {
    const s = "Paleoclimatologists measure the ratio, as Harold Urey showed.";
    expect(namedByPosition(s, spanOf(s, "Paleoclimatologists"), readsAsName)).toBe(false);
    expect(namedByPosition(s, spanOf(s, "Harold Urey"), readsAsName)).toBe(true);
    expect(namedByPosition(s, spanOf(s, "Paleoclimatologists"), undefined)).toBe(true);
  });
});

describe("the asked kind and the sentence it comes from", () => {
  it("abstains rather than take a span of the kind from a sentence far below the best", () => {
    const chunks = [
      {
        key: 1,
        text: "Some remote sensing scientists measure the radiance of vegetation canopies from a satellite platform.",
        score: 0.9,
      },
      { key: 2, text: "Harold Urey worked on other measures in Chicago.", score: 0.3 },
    ];
    const plan = planAnswer("From where do remote sensing scientists measure vegetation radiance?", chunks, 8, {
      tag: posTags,
      readsAsName,
    });
    expect(plan.answerType).toBe("place");
    expect(plan.kindMissing).toBe(true);
    expect(plan.confidence).toBe(0);
    expect(plan.selected[0]!.key).toBe(1); // the best evidence is still what a withheld answer cites
  });

  it("does not answer a who-question with the capital that opens an open question", () => {
    const chunks = [{ key: 1, text: "Open question: who pays for the extra brokers?", score: 0.9 }];
    const plan = planAnswer("Who pays for the extra brokers?", chunks, 8, { tag: posTags, readsAsName });
    expect(plan.kindMissing).toBe(true);
    expect(planAnswer("Who pays for the extra brokers?", chunks, 8, { tag: posTags }).answer).not.toBeNull(); // what it was
  });

  it("takes the span of the kind from a rival of the best sentence", () => {
    const chunks = [
      { key: 1, text: "The staging cluster is moving next quarter, the platform team said.", score: 0.8 },
      { key: 2, text: "The staging cluster is moving to eu-west-2.", score: 0.8 },
    ];
    const plan = planAnswer("Where is the staging cluster moving?", chunks, 8, { tag: posTags, readsAsName });
    expect(plan.selected[0]!.key).toBe(2);
    expect(plan.selected[0]!.text.slice(plan.answer!.start, plan.answer!.end)).toBe("eu-west-2");
  });
});
