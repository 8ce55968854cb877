// What the answerer may know about words beyond their letters, injected by the caller (no package or model in the domain):
// word vectors for meaning, part-of-speech tags for a span's edges and kind. Without either, those features are 0.
import type { Similar } from "./word-sense.ts";

/** A word of a sentence with its Universal POS tag (PROPN, NOUN, VERB, AUX, ADJ, NUM, ...) and character offsets. */
export interface Tagged {
  start: number;
  end: number;
  pos: string;
  /** Dictionary form ("broke" -> break), when the tagger knows it: irregular verbs share no stem. */
  lemma?: string;
}

/** The words of a text with their tags, in order (punctuation and spaces left out). */
export type Tagger = (text: string) => readonly Tagged[];

/** Whether the word at `start` of `sentence` reads as a name (a capital by position is no name: "Open question: ..."). */
export type NameReader = (sentence: string, start: number) => boolean;

export interface Language {
  similar?: Similar | undefined;
  tag?: Tagger | undefined;
  readsAsName?: NameReader | undefined;
}
