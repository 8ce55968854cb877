// A text document's title line: a single short first line with text after a blank line; not a turn, a message or a
// date stamp.
import { expect, it } from "vitest";
import { documentTitle } from "../../src/domain/text/title.ts";

it("reads a short first line above a blank line as the title, with where it ends", () => {
  expect(documentTitle("Calciferol and hip fractures\n\nWe followed 40 cohorts.")).toEqual({
    text: "Calciferol and hip fractures",
    end: 28,
  });
  expect(documentTitle("  Indented title \t\r\n \r\nBody")).toEqual({ text: "Indented title", end: 16 });
});

it("finds none where the first paragraph runs on, nothing follows, or the line is too long", () => {
  expect(documentTitle("One line\nand another\n\nBody")).toBeNull();
  expect(documentTitle("Only a title\n\n   \n")).toBeNull();
  expect(documentTitle(`${"word ".repeat(80)}\n\nBody`)).toBeNull();
  expect(documentTitle("No break at all")).toBeNull();
});

it("takes no conversation turn or date stamp for a title", () => {
  expect(documentTitle("Caroline: Hey Mel, how was the pottery class?\n\nMelanie: Great!")).toBeNull();
  expect(documentTitle("user: what should I cook tonight?\n\nassistant: Try a risotto.")).toBeNull();
  expect(documentTitle("Session 1 - 8 May 2023\n\nCaroline: Hi")).toBeNull();
});

it("takes no message someone wrote for a title: first person, second person, a greeting", () => {
  // LongMemEval's sessions: a user's messages joined by blank lines, no labels.
  expect(
    documentTitle("I'm planning a trip to Chicago. Any restaurants near the center?\n\nThanks, booked!"),
  ).toBeNull();
  expect(documentTitle("Can you recommend some books on self-love?\n\nThe second one sounds good.")).toBeNull();
  expect(documentTitle("Hey, quick question about my garden\n\nThe tomatoes wilt.")).toBeNull();
  expect(documentTitle("Let's represent this as layers\n\nTop layer: the API.")).toBeNull();
  expect(documentTitle("So I was wondering about taxes\n\nMore below.")).toBeNull();
  expect(documentTitle("i need a cheap flight\n\nto Rome.")).toBeNull();
});

it("keeps a title that names its subject, a question or a numeral 'I' included", () => {
  for (const title of [
    "How long will long-term potentiation last?",
    "Prion-like activity of Cu/Zn superoxide dismutase: implications for amyotrophic lateral sclerosis.",
    "EB virus-encoded RNAs are recognized by RIG-I and activate signaling to induce type I IFN.",
    "A phase I study of PF-04449913 in patients with advanced solid tumors.",
    "What is the ratio of males to females in Buckinghamshire's population?",
  ])
    expect(documentTitle(`${title}\n\nThe abstract.`)?.text).toBe(title);
});

it("reads a first line of 200,000 blanks at once (a pattern here had backtracked quadratically)", () => {
  expect(documentTitle(`a${" ".repeat(200_000)}b\n\nBody`)).toBeNull();
  expect(documentTitle(`${" ".repeat(200_000)}\n\nBody`)).toBeNull();
});
