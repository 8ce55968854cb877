// A text document's title line: a single short first line with text after a blank line; not a turn, not a date stamp.
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

it("reads a first line of 200,000 blanks at once (a pattern here had backtracked quadratically)", () => {
  expect(documentTitle(`a${" ".repeat(200_000)}b\n\nBody`)).toBeNull();
  expect(documentTitle(`${" ".repeat(200_000)}\n\nBody`)).toBeNull();
});
