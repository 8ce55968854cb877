// Sentences and paragraphs of Zipf-sampled real words, punctuated like prose.
import { intBetween, type Rng } from "../../src/domain/text/prng.ts";
import { Zipf } from "./zipf.ts";

export class TextGenerator {
  private readonly zipf: Zipf;

  constructor(
    private readonly vocab: readonly string[],
    private readonly rng: Rng,
    exponent = 1.0,
  ) {
    this.zipf = new Zipf(vocab.length, exponent);
  }

  word(): string {
    return this.vocab[this.zipf.sample(this.rng)]!;
  }

  words(n: number): string[] {
    return Array.from({ length: n }, () => this.word());
  }

  /** About `n` words as sentences of 6-20 words, with an occasional comma. */
  paragraph(n: number): string {
    const sentences: string[] = [];
    for (let left = n; left > 0;) {
      const len = Math.min(left, intBetween(this.rng, 6, 20));
      const ws = this.words(len);
      if (len > 8 && this.rng() < 0.4) ws[intBetween(this.rng, 2, len - 3)] += ",";
      sentences.push(`${capitalize(ws.join(" "))}.`);
      left -= len;
    }
    return sentences.join(" ");
  }

  title(lo = 2, hi = 6): string {
    return capitalize(this.words(intBetween(this.rng, lo, hi)).join(" "));
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
