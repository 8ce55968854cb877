// Whether a capitalized word reads as a name, from compromise's lexicon and tagger (MIT, ~5 MB, no model download):
// wink's lite model tags every capitalized sentence opener as a proper noun, so it cannot tell "Open question:" from
// "Alice picked ...". The NameReader the answerer is given (src/domain/answering/language.ts).
import { createRequire } from "node:module";
import type { NameReader } from "../domain/answering/language.ts";

interface Term {
  text: string;
  tags: string[];
  offset?: { start: number; length: number };
}
type Compromise = (text: string) => { json(opts?: { offset: boolean }): { terms: Term[] }[] };

let nlp: Compromise | null = null;

/** Loaded on first use (~0.3 s): only a who/where answer whose candidate opens its sentence needs it. */
function reader(): Compromise {
  if (!nlp) {
    const require = createRequire(import.meta.url); // synchronous, so planAnswer stays synchronous
    const mod = require("compromise") as { default?: Compromise } | Compromise;
    nlp = typeof mod === "function" ? mod : mod.default!;
  }
  return nlp;
}

/** How a worker thread loads the same reader: `(await import(module))[name]`. */
export const portableNameReader = { module: import.meta.url, name: "readsAsName" } as const;

/**
 * The word at `start` of `sentence` reads as a name: a noun that is not a role ("scientists", "engineers": compromise's
 * Actor), or a person, place or organisation. An adjective, verb or expression ("Open", "Pending") is not one.
 */
export const readsAsName: NameReader = (sentence: string, start: number): boolean => {
  const terms = reader()(sentence)
    .json({ offset: true })
    .flatMap((s) => s.terms);
  const term = terms.find((t) => (t.offset?.start ?? -1) >= start);
  if (!term) return true;
  const tags = new Set(term.tags);
  if (tags.has("Person") || tags.has("Place") || tags.has("Organization") || tags.has("ProperNoun")) return true;
  return tags.has("Noun") && !tags.has("Actor");
};
