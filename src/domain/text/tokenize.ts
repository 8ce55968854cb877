// Lexical analysis shared by indexing and querying: lowercase, ASCII-fold, stopwords, Porter stem.
import { stemmer } from "stemmer";

const STOPWORDS = new Set(
  "a an and are as at be been but by for from had has have he her his i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who whom why will with you your do does did not no can could would should shall may might must am about up down out over under again once here how all any both each few more most other some such only own same too very s t just don now".split(
    " ",
  ),
);

const stemCache = new Map<string, string>();

function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

/** Terms of a text for BM25: words of letters/digits, folded, without stopwords, stemmed. */
export function tokenize(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const out: string[] = [];
  for (const m of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (w.length > 40 || STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
