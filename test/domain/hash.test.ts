// Normalization and content addressing (README "Normalization"; SPEC "Citation": chunk_hash).
import { describe, expect, it } from "vitest";
import { contentHash, normalizeText, sha256Hex } from "../../src/domain/text/hash.ts";

describe("contentHash", () => {
  it("has the form sha256: + 64 lowercase hex digits and is the digest of the normalized text", () => {
    const h = contentHash("hello world");
    expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(h).toBe("sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("ignores CRLF vs LF, trailing spaces and extra blank lines", () => {
    const lf = "First line\nSecond line\n\nNext paragraph";
    expect(contentHash("First line\r\nSecond line\r\n\r\nNext paragraph")).toBe(contentHash(lf));
    expect(contentHash("First line   \nSecond line\t\n\nNext paragraph  ")).toBe(contentHash(lf));
    expect(contentHash("First line\rSecond line\r\rNext paragraph")).toBe(contentHash(lf));
    expect(contentHash("\n\nFirst line\nSecond line\n\n\n\nNext paragraph\n\n")).toBe(contentHash(lf));
  });

  it("applies Unicode NFC, so composed and decomposed accents hash alike", () => {
    expect("Caf\u00e9").not.toBe("Cafe\u0301");
    expect(contentHash("Caf\u00e9 cr\u00e8me")).toBe(contentHash("Cafe\u0301 cre\u0300me"));
  });

  it("keeps meaningful differences: words, case, leading indentation, inner spaces", () => {
    const base = contentHash("the quick brown fox");
    expect(contentHash("the quick brown cat")).not.toBe(base);
    expect(contentHash("The quick brown fox")).not.toBe(base);
    expect(contentHash("the quick  brown fox")).not.toBe(base);
    expect(contentHash("line\n  indented")).not.toBe(contentHash("line\nindented"));
  });

  it("trims line ends exactly as the pattern it replaced did, and in linear time over a long run of blanks", () => {
    const byPattern = (t: string) => t.replace(/[ \t\f\v]+$/gm, "");
    const alphabet = [" ", "\t", "\f", "\v", "a", "\n", "\u2028", "\u2029", "\u00a0"];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join("");
      expect(normalizeText(text)).toBe(normalizeText(byPattern(text)));
    }
    // 200,000 blanks inside a line: the pattern took minutes (quadratic backtracking); this is one pass.
    const blanks = `a${" ".repeat(200_000)}b\n`;
    expect(normalizeText(blanks)).toBe(blanks.trimEnd());
  });

  it("normalizeText is idempotent", () => {
    const messy = "  a \r\n\r\n\r\n b\u0301\t\r\n";
    expect(normalizeText(normalizeText(messy))).toBe(normalizeText(messy));
    expect(normalizeText(messy)).toBe("  a\n\n b\u0301".normalize("NFC"));
  });
});
