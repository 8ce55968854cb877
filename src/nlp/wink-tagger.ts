// Part-of-speech tags of a sentence, from wink-nlp's English lite model (shipped in the npm package, ~4 MB on disk): the
// Tagger the answerer is given (src/domain/answering/language.ts).
import { createRequire } from "node:module";
import type { Model, WinkMethods } from "wink-nlp";
import type { Tagged, Tagger } from "../domain/answering/language.ts";

let nlp: WinkMethods | null = null;

/** The tagger, loaded on first use (about 0.25 s and 40 MB RSS): only the answer path needs it, so start-up and recall never pay for it. */
function tagger(): WinkMethods {
  if (!nlp) {
    const require = createRequire(import.meta.url); // synchronous, so planAnswer stays synchronous
    const winkNLP = (require("wink-nlp") as { default?: unknown }).default ?? require("wink-nlp");
    nlp = (winkNLP as (model: Model, pipe: string[]) => WinkMethods)(require("wink-eng-lite-web-model") as Model, [
      "pos",
    ]);
  }
  return nlp;
}

/** How a worker thread loads the same tagger: `(await import(module))[name]`. */
export const portableTagger = { module: import.meta.url, name: "posTags" } as const;

const recent = new Map<string, Tagged[]>();
/** Sentences tagged lately: candidates and their scores read the same few sentences' tags. */
const RECENT = 16;

/** The words of `text` with their tags and character offsets, in order (punctuation and spaces left out). */
export const posTags: Tagger = (text: string): Tagged[] => {
  const seen = recent.get(text);
  if (seen) return seen;
  const out = tag(text);
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
  recent.set(text, out);
  return out;
};

function tag(text: string): Tagged[] {
  const { its } = tagger();
  const tokens = tagger().readDoc(text).tokens();
  const values = tokens.out(its.value) as string[];
  const tags = tokens.out(its.pos) as string[];
  const lemmas = tokens.out(its.lemma as unknown as typeof its.pos) as string[]; // the package types its.lemma with a narrower signature than out() takes; it works the same at run time
  const out: Tagged[] = [];
  let at = 0;
  values.forEach((v, i) => {
    const start = text.indexOf(v, at);
    if (start < 0) return; // a token the tokenizer rewrote: no offset to give it
    at = start + v.length;
    if (tags[i] !== "PUNCT" && tags[i] !== "SPACE")
      out.push({ start, end: at, pos: tags[i] ?? "X", ...(lemmas[i] ? { lemma: lemmas[i] } : {}) });
  });
  return out;
}
