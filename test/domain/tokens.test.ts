// The token estimate's word count equals splitting on JavaScript's \s, for every kind of space.
import { describe, expect, it } from "vitest";
import { countWords, estimateTokens, messageTokens } from "../../src/domain/text/tokens.ts";
import { prng } from "../helpers/prng.ts";

// Every character \s matches, a few it does not (zero-width space, NEL, ideographic full stop), and word characters.
const SPACES = [..." \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"];
const OTHERS = [..."ab1.é\u200b\u0085\u3002\u{1f600}"];
const bySplit = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("estimateTokens", () => {
  it("counts words as text.split(/\\s+/) does (10,000 random texts)", () => {
    const random = prng(11);
    for (let n = 0; n < 10_000; n++) {
      let text = "";
      for (let i = random.int(0, 40); i > 0; i--)
        text += random.next() < 0.4 ? random.pick(SPACES) : random.pick(OTHERS);
      expect(countWords(text), JSON.stringify(text)).toBe(bySplit(text));
    }
    for (let c = 0; c <= 0xffff; c++)
      expect(countWords(`a${String.fromCharCode(c)}b`), c.toString(16)).toBe(bySplit(`a${String.fromCharCode(c)}b`));
  });

  it("is the larger of chars / 4 and words x 4 / 3, rounded up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("a b c")).toBe(4); // 3 words: 4 > 5 / 4
    expect(estimateTokens("x".repeat(41))).toBe(11); // one long word: 41 / 4
  });

  it("of a message: the content's estimate, counted once per message object", () => {
    const message = { role: "tool", content: "one two three ".repeat(300) };
    expect(messageTokens(message)).toBe(estimateTokens(message.content));
    const counted = messageTokens(message);
    // The same object is not counted again (messages do not change); another object with other content is.
    Object.assign(message, { content: "" });
    expect(messageTokens(message)).toBe(counted);
    expect(messageTokens({ content: "a b c" })).toBe(4);
  });
});
