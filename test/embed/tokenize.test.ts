import { describe, expect, it } from "vitest";
import { tokenize } from "../../src/embed/tokenize.ts";

describe("tokenize", () => {
  it("lowercases and splits on anything that is not a letter or digit", () => {
    expect(tokenize("The CAT sat, on the mat!")).toEqual(["the", "cat", "sat", "on", "the", "mat"]);
    expect(tokenize("e-mail U.S. x86_64 (v2)")).toEqual(["e", "mail", "u", "s", "x86", "64", "v2"]);
    expect(tokenize("  \n\t ... ")).toEqual([]);
    expect(tokenize("")).toEqual([]);
  });

  it("splits clitics like the Penn Treebank: drops 's 're 'll 've 'd 'm and maps n't to not", () => {
    expect(tokenize("The cat's toys")).toEqual(["the", "cat", "toys"]);
    expect(tokenize("we're they'll I've she'd I'm")).toEqual(["we", "they", "i", "she", "i"]);
    expect(tokenize("don't can't won't")).toEqual(["do", "not", "ca", "not", "wo", "not"]);
    expect(tokenize("O'Neill rock'n'roll")).toEqual(["o", "neill", "rock", "n", "roll"]);
    expect(tokenize("'quoted' trailing' 'leading")).toEqual(["quoted", "trailing", "leading"]);
  });

  it("folds diacritics and typographic apostrophes, keeps other scripts as tokens", () => {
    expect(tokenize("Café NAÏVE it’s Ångström")).toEqual(["cafe", "naive", "it", "angstrom"]);
    expect(tokenize("Straße Москва 東京")).toEqual(["straße", "москва", "東京"]);
    expect(tokenize("𝐀bc")).toEqual(["abc"]); // NFKD maps mathematical bold A to A
  });
});
