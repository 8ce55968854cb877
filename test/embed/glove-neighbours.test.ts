// Nearest GloVe words for manas: the Hamming-prefiltered search finds the exact top neighbours on a synthetic table.
import { describe, expect, it } from "vitest";
import type { GloveTable } from "../../src/embed/glove-format.ts";
import { decodeGloveTable, encodeGloveTable } from "../../src/embed/glove-format.ts";
import { GloveNeighbours, TABLE_K, withNeighbourTable } from "../../src/embed/glove-neighbours.ts";
import { WordList } from "../../src/embed/word-list.ts";
import { prng } from "../helpers/prng.ts";

function table(words: string[], vectors: number[][], ranks?: number[]): GloveTable {
  const d = vectors[0]!.length;
  return {
    dimensions: d,
    vocabSize: words.length,
    sourceSize: 0,
    words: WordList.fromWords(words),
    ranks: Uint32Array.from(ranks ?? words.map((_, i) => i)),
    scales: new Float32Array(words.length).fill(1),
    vectors: Int8Array.from(vectors.flat()),
    neighbours: null,
  };
}

const open = (t: GloveTable) => new GloveNeighbours(t);

describe("GloveNeighbours", () => {
  it("ranks by cosine, leaves out the word itself, non-words and rare words", () => {
    const t = table(
      ["car", "auto", "truck", "banana", "c4r", "vehicle"],
      [
        [100, 10, 0, 0],
        [90, 20, 0, 0],
        [60, 60, 0, 0],
        [0, 0, 100, 0],
        [100, 10, 0, 0],
        [95, 12, 0, 0],
      ],
      [0, 1, 2, 3, 4, 50_000],
    );
    const n = open(t).neighbours("car", 3);
    expect(n.map((x) => x.word)).toEqual(["auto", "truck", "banana"]);
    expect(n[0]!.similarity).toBeGreaterThan(n[1]!.similarity);
    expect(open(t).neighbours("zebra", 3)).toEqual([]);
  });

  it("the prefilter agrees with an exact scan on a random table", () => {
    const rnd = prng(7);
    const words = Array.from({ length: 3000 }, (_, i) =>
      `w${"abcdefghij"[i % 10]}${String.fromCharCode(97 + (i % 26))}${i}`.replace(
        /\d/g,
        (c) => "klmnopqrst"[Number(c)]!,
      ),
    );
    const vectors = words.map(() => Array.from({ length: 32 }, () => rnd.int(-127, 127)));
    const t = table(words, vectors);
    const nb = open(t);
    const cos = (a: number[], b: number[]) =>
      a.reduce((s, x, i) => s + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));
    let agree = 0;
    for (let q = 0; q < 20; q++) {
      const exact = words
        .map((w, i) => ({ w, s: i === q ? -2 : cos(vectors[q]!, vectors[i]!) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 5)
        .map((x) => x.w);
      agree += nb.neighbours(words[q]!, 5).filter((x) => exact.includes(x.word)).length;
    }
    expect(agree / 100).toBeGreaterThanOrEqual(0.8);
  });

  describe("the precomputed table", () => {
    const rnd = prng(11);
    const words = Array.from(
      { length: 1500 },
      (_, i) => `w${i.toString(26).replace(/\d/g, (c) => "qrstuvwxyz"[Number(c)]!)}`,
    );
    // 100 dimensions: four sign words, the unrolled scan the real table uses.
    const plain = table(
      words,
      words.map(() => Array.from({ length: 100 }, () => rnd.int(-127, 127))),
    );
    const withTable = withNeighbourTable(plain);

    it("answers exactly as the search does, for every n, and searches past its k", () => {
      expect(withTable.neighbours!.heads.length).toBe(words.length);
      const searched = open(plain);
      const tabled = open(withTable);
      for (const w of words.slice(0, 200))
        for (const n of [1, 2, TABLE_K, TABLE_K + 2])
          expect(tabled.neighbours(w, n), `${w} n=${n}`).toEqual(searched.neighbours(w, n));
    });

    it("survives the cache file's encoding, and a table built with other search settings is not used", () => {
      const decoded = decodeGloveTable(Buffer.concat(encodeGloveTable(withTable)));
      if (!decoded.ok) throw new Error(decoded.reason);
      expect(Array.from(decoded.table.neighbours!.rows)).toEqual(Array.from(withTable.neighbours!.rows));
      expect(Array.from(decoded.table.neighbours!.cosines)).toEqual(Array.from(withTable.neighbours!.cosines));
      expect(open(decoded.table).neighbours(words[7]!, 3)).toEqual(open(plain).neighbours(words[7]!, 3));
      // A table from another shortlist size would answer differently from the search; it must be ignored.
      const wrong = {
        ...withTable,
        neighbours: {
          ...withTable.neighbours!,
          shortlist: 1,
          rows: new Int32Array(withTable.neighbours!.rows.length).fill(0),
        },
      };
      expect(open(wrong).neighbours(words[7]!, 3)).toEqual(open(plain).neighbours(words[7]!, 3));
    });
  });
});
