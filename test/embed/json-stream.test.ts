import { describe, expect, it } from "vitest";
import { JsonTokenizer, type JsonTokenHandler } from "../../src/embed/json-stream.ts";

type Token = string | number | boolean | null | { punct: string };

function tokenizeIn(json: string, chunkSize: number): Token[] {
  const tokens: Token[] = [];
  const handler: JsonTokenHandler = {
    punct: (c) => tokens.push({ punct: String.fromCharCode(c) }),
    string: (s) => tokens.push(s),
    number: (n) => tokens.push(n),
    literal: (v) => tokens.push(v),
  };
  const t = new JsonTokenizer(handler);
  const bytes = Buffer.from(json, "utf8");
  for (let i = 0; i < bytes.length; i += chunkSize) t.feed(bytes.subarray(i, i + chunkSize));
  t.end();
  return tokens;
}

/** Reference token stream from JSON.parse, for documents without objects-as-values ambiguity. */
function reference(value: unknown): Token[] {
  if (Array.isArray(value)) {
    const inner = value.flatMap((v, i) => [...(i > 0 ? [{ punct: "," }] : []), ...reference(v)]);
    return [{ punct: "[" }, ...inner, { punct: "]" }];
  }
  if (value !== null && typeof value === "object") {
    const inner = Object.entries(value).flatMap(([k, v], i) => [
      ...(i > 0 ? [{ punct: "," }] : []),
      k,
      { punct: ":" },
      ...reference(v),
    ]);
    return [{ punct: "{" }, ...inner, { punct: "}" }];
  }
  return [value as Token];
}

const DOC = `{"a\\"b\\\\c\\u00e9\\n": [1, -0.038194, 3.24940891, -7.0514e-7, 4.1274E+2, 0, -0.0, 12345678901234567890, 0.000001],
  "ünï🐱": {"t": true, "f": false, "n": null, "nested": [[], {}, ["x", "y z"]]},
  "last": 341478 }`;

describe("JsonTokenizer", () => {
  it.each([1, 2, 3, 7, 64, 1 << 20])("matches JSON.parse when fed in %i-byte chunks", (size) => {
    const got = tokenizeIn(DOC, size);
    const want = reference(JSON.parse(DOC));
    expect(got.length).toBe(want.length);
    got.forEach((tok, i) => {
      const w = want[i];
      if (typeof tok === "number" && typeof w === "number") {
        // Exact up to 15 significant digits; longer mantissas are truncated (relative error < 1e-14).
        expect(Math.abs(tok - w)).toBeLessThanOrEqual(Math.abs(w) * 1e-14);
      } else expect(tok).toEqual(w);
    });
  });

  it("parses typical GloVe values exactly", () => {
    for (const s of ["-0.038194", "0.72812", "3.24940891", "-7.0514e-7", "341478"]) {
      expect(tokenizeIn(`[${s}]`, 1)[1]).toBe(Number.parseFloat(s));
    }
  });

  it("rejects garbage and unterminated strings", () => {
    expect(() => tokenizeIn(`{"a": @}`, 4)).toThrow(/unexpected byte/);
    expect(() => tokenizeIn(`["abc`, 4)).toThrow(/inside a string/);
    expect(() => tokenizeIn(`[tru]`, 4)).toThrow(/invalid literal/);
  });
});
