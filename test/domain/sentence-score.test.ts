// Evidence sentence features: the question's words in a sentence, and those it states another way (a back-reference, another word form).
import { describe, expect, it } from "vitest";
import { planAnswer, SENTENCE, SPAN } from "../../src/domain/answering/answer.ts";
import { scoreSentences, type SentenceFeatures } from "../../src/domain/answering/sentence-score.ts";
import { splitSentences } from "../../src/domain/text/sentences.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";

/** Features of each sentence of the chunks (every question term weighted 1, chunk score 0.5). */
function featuresOf(question: string, chunks: readonly string[]): SentenceFeatures[] {
  const weight = new Map(tokenize(question).map((t) => [t, 1]));
  const inputs = chunks.flatMap((text, chunk) =>
    splitSentences(text).map((s) => {
      const sentence = text.slice(s.start, s.end);
      return { chunk, chunkScore: 0.5, text: sentence, terms: new Set(tokenize(sentence)), typed: false };
    }),
  );
  return scoreSentences(question, inputs, weight).map((s) => s.features);
}

describe("scoreSentences", () => {
  const q = "How old was Ingrid Solberg when she drew the lighthouse?"; // terms: old, ingrid, solberg, drew, lighthouse
  it("credits a sentence that refers back with the question terms of the sentence before it", () => {
    const [first, second] = featuresOf(q, [
      "Ingrid Solberg was the engineer of the coast office. She drew the lighthouse at age 39.",
    ]);
    expect(second!.prevRef).toBeCloseTo(2 / 5); // ingrid, solberg from the sentence before
    expect(second!.overlap).toBeCloseTo(2 / 5); // drew, lighthouse its own
    expect(first!.prevRef).toBe(0);
  });

  it("does not carry terms across chunks, nor to a sentence that does not refer back", () => {
    const [, other] = featuresOf(q, [
      "Ingrid Solberg was the engineer of the coast office.",
      "She drew the lighthouse at age 39.",
    ]);
    expect(other!.prevRef).toBe(0);
    const [, plain] = featuresOf(q, [
      "Ingrid Solberg was the engineer of the coast office. Ada Berg drew the lighthouse.",
    ]);
    expect(plain!.prevRef).toBe(0);
    const [, demonstrative] = featuresOf(q, [
      "Ingrid Solberg was the engineer of the coast office. During this time she drew the lighthouse.",
    ]);
    expect(demonstrative!.prevRef).toBeCloseTo(2 / 5);
  });

  it("matches a question word the stemmer keeps apart by its first six letters", () => {
    const [s] = featuresOf("Who won the division?", ["The Broncos won the divisional round."]);
    expect(s!.overlap).toBeCloseTo(1 / 2);
    expect(s!.morph).toBeCloseTo(1 / 2);
  });

  it("counts a term once when both the sentence before and a word form would find it", () => {
    const [, second] = featuresOf("Who won the division title?", [
      "The division title went to Denver. They won the divisional round.",
    ]);
    expect(second!.prevRef).toBeCloseTo(2 / 3); // division, title from the sentence before
    expect(second!.morph).toBe(0); // "divisional" would match "division" again
  });
});

describe("planAnswer sentence choice", () => {
  it("answers from the sentence that says 'she' when the name is in the one before", () => {
    const text = "Ingrid Solberg joined the coast office in 1950 with 12 others. She drew the lighthouse at age 39.";
    const question = "How old was Ingrid Solberg when she drew the lighthouse?";
    const plan = planAnswer(question, [{ key: 1, text, score: 0.5 }]);
    expect(plan.selected[0]!.text).toBe("She drew the lighthouse at age 39.");
    expect(plan.selected[0]!.text.slice(plan.answer!.start, plan.answer!.end)).toBe("39");
    const scoreOf = (p: typeof plan, start: string) => p.ranked.find((x) => x.text.startsWith(start))!.score;
    expect(scoreOf(plan, "She")).toBeGreaterThan(scoreOf(plan, "Ingrid"));
    const words = planAnswer(question, [{ key: 1, text, score: 0.5 }], 8, {}, SPAN, { ...SENTENCE, prevRef: 0 });
    expect(scoreOf(words, "She")).toBeCloseTo(scoreOf(words, "Ingrid")); // on its own words alone it only ties
  });
});
