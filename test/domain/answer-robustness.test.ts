// planAnswer on whatever a caller stores and asks: random mixes of words, names, numbers, punctuation and odd Unicode,
// through the real tagger. It must never throw, and what it returns must point inside the evidence it was given.
import { describe, expect, it } from "vitest";
import { planAnswer, type EvidenceChunk } from "../../src/domain/answering/answer.ts";
import { intBetween, mulberry32, type Rng } from "../../src/domain/text/prng.ts";
import type { Similar } from "../../src/domain/answering/word-sense.ts";
import { posTags } from "../../src/nlp/wink-tagger.ts";

const PIECES = [
  "the",
  "a",
  "of",
  "by",
  "was",
  "were",
  "did",
  "who",
  "what",
  "which",
  "when",
  "where",
  "how",
  "many",
  "why",
  "he",
  "she",
  "this",
  "Lady",
  "Gaga",
  "Broncos",
  "Ada",
  "Berg",
  "O'Neil",
  "São",
  "Paulo",
  "Zürich",
  "naïve",
  "recovered",
  "sang",
  "led",
  "performed",
  "1347",
  "4:51",
  "£30m",
  "28.5°E",
  "3–1",
  "½",
  "2nd",
  "U.S.",
  "e.g.",
  "Y.",
  "pestis",
  ",",
  ".",
  "?",
  "!",
  ";",
  ":",
  "(",
  ")",
  '"',
  "“",
  "”",
  "—",
  "-",
  "'",
  "\n",
  "\n\n",
  "# ",
  "…",
  "😀",
  "\u200b",
  "\u00ad",
  "مرحبا",
  "日本語",
  "\u202e",
  "\t",
  "  ",
];

function phrase(rng: Rng, words: number): string {
  let out = "";
  for (let i = 0; i < words; i++) out += `${PIECES[intBetween(rng, 0, PIECES.length - 1)]!}${rng() < 0.8 ? " " : ""}`;
  return out;
}

// A stand-in for the word vectors: deterministic, in [-1, 1], and symmetric.
const similar: Similar = (a, b) => (a === b ? 1 : a.slice(0, 3) === b.slice(0, 3) ? 0.6 : -0.1);

function checkPlan(question: string, chunks: EvidenceChunk[]): void {
  const plan = planAnswer(question, chunks, 8, { similar, tag: posTags });
  expect(plan.confidence).toBeGreaterThanOrEqual(0);
  expect(plan.confidence).toBeLessThanOrEqual(1);
  expect(Number.isFinite(plan.confidence)).toBe(true);
  for (const s of plan.selected) {
    const chunk = chunks.find((c) => c.key === s.key)!;
    expect(chunk.text.slice(s.span.start, s.span.end)).toBe(s.text); // a citation quotes its chunk literally
  }
  const best = plan.selected[0];
  if (plan.answer) {
    expect(best).toBeDefined();
    expect(plan.answer.start).toBeGreaterThanOrEqual(0);
    expect(plan.answer.end).toBeGreaterThan(plan.answer.start);
    expect(plan.answer.end).toBeLessThanOrEqual(best!.text.length);
  }
  for (const v of Object.values(plan.features)) expect(Number.isFinite(v)).toBe(true);
}

describe("planAnswer robustness", () => {
  it("answers 300 random questions over random evidence without throwing, citing only what it was given", () => {
    const rng = mulberry32(20_261_122);
    for (let round = 0; round < 300; round++) {
      const chunks = Array.from({ length: intBetween(rng, 0, 4) }, (_, key) => ({
        key,
        text: phrase(rng, intBetween(rng, 0, 60)),
        score: rng(),
      }));
      checkPlan(phrase(rng, intBetween(rng, 0, 14)), chunks);
    }
  });

  it.each([
    ["", [""]],
    ["?", ["?", "..."]],
    ["Who?", ["He. She. It."]],
    ["What did he do?", ["\u200b\u200b\u200b"]],
    ["When did it happen", ["In 1347 it happened. In 1348 it happened again."]],
    ["Who recovered the ball?", ["The ball was recovered by by by."]],
    ["What was sung?", ["# A heading only"]],
    ["How many?", ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"]],
    ["Which 😀 won?", ["😀 won. 😀😀 lost."]],
  ])("handles %j", (question, texts) => {
    checkPlan(
      question,
      texts.map((text, key) => ({ key, text, score: 0.5 })),
    );
  });

  it("handles one very long sentence (a pasted table row without full stops)", () => {
    const rng = mulberry32(7);
    const text = Array.from({ length: 3000 }, () => PIECES[intBetween(rng, 0, 17)]).join(" ");
    checkPlan("Who performed the anthem?", [{ key: 1, text, score: 0.9 }]);
  });
});
