// The ASCII fast path of tokenize gives exactly the general path's terms, on random and on real text.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tokenize, tokenizeAscii, tokenizeUnicode } from "../../src/domain/text/tokenize.ts";
import { prng } from "../helpers/prng.ts";

const ALPHABET =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\n.,;:!?'\"-_/()[]{}#*`~@$%^&+=<>|\\";
const WORDS = [
  "the",
  "The",
  "PostgreSQL",
  "isn't",
  "e.g.",
  "v2.1",
  "running",
  "x".repeat(41),
  "x".repeat(40),
  "CamelCase",
  "snake_case",
  "a1b2",
];

describe("tokenize", () => {
  it("takes the ASCII path to the same terms as the general one (10,000 random texts)", () => {
    const random = prng(5);
    for (let n = 0; n < 10_000; n++) {
      const parts: string[] = [];
      for (let i = random.int(0, 30); i > 0; i--)
        parts.push(random.next() < 0.4 ? random.pick(WORDS) : ALPHABET[random.int(0, ALPHABET.length - 1)]!);
      const text = parts.join(random.next() < 0.5 ? " " : "");
      expect(tokenizeAscii(text), JSON.stringify(text)).toEqual(tokenizeUnicode(text));
    }
  });

  it("agrees on real documents, and folds accents on the general path", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const ascii = readme.replace(/[\u0080-\uffff]/g, " ");
    expect(tokenizeAscii(ascii)).toEqual(tokenizeUnicode(ascii));
    expect(tokenize("Café Zürich naïve")).toEqual(["cafe", "zurich", "naiv"]);
    expect(tokenize("Running QUICKLY to the 2024 release")).toEqual(["run", "quickli", "2024", "releas"]);
  });
});
