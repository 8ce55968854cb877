// Nearest words in the GloVe table (manas' query expansion): exact cosine over the most frequent words, cached per word.
import type { WordNeighbours } from "../ports.ts";
import type { GloveTable } from "./glove-format.ts";

/** Candidates: the most frequent plain lowercase words; rarer ones are mostly names and typos, useless as expansions. */
export const NEIGHBOUR_VOCABULARY = 40_000;
const CACHE_WORDS = 50_000;

export class GloveNeighbours implements WordNeighbours {
  private readonly rows: Int32Array;
  private readonly norms: Float32Array;
  private readonly cache = new Map<string, { word: string; similarity: number }[]>();

  constructor(
    private readonly table: GloveTable,
    private readonly index: ReadonlyMap<string, number>,
  ) {
    const rows: number[] = [];
    for (let i = 0; i < table.words.length; i++) if (table.ranks[i]! < NEIGHBOUR_VOCABULARY && /^[a-z]{2,}$/.test(table.words[i]!)) rows.push(i);
    this.rows = Int32Array.from(rows);
    this.norms = new Float32Array(rows.length);
    const d = table.dimensions;
    rows.forEach((row, j) => {
      let sq = 0;
      for (let k = row * d; k < row * d + d; k++) sq += table.vectors[k]! * table.vectors[k]!;
      this.norms[j] = Math.sqrt(sq);
    });
  }

  /** The `n` most similar candidate words (the word itself excluded); [] for a word GloVe does not know. */
  neighbours(word: string, n: number): { word: string; similarity: number }[] {
    const key = `${n}\u0000${word}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const out = this.search(word, n);
    if (this.cache.size >= CACHE_WORDS) this.cache.clear();
    this.cache.set(key, out);
    return out;
  }

  private search(word: string, n: number): { word: string; similarity: number }[] {
    const self = this.index.get(word);
    if (self === undefined || n <= 0) return [];
    const { vectors, dimensions: d, words } = this.table;
    const q = vectors.subarray(self * d, self * d + d);
    let qn = 0;
    for (let k = 0; k < d; k++) qn += q[k]! * q[k]!;
    qn = Math.sqrt(qn);
    if (qn === 0) return [];
    const best: { row: number; sim: number }[] = [];
    for (let j = 0; j < this.rows.length; j++) {
      const row = this.rows[j]!;
      if (row === self) continue;
      let dot = 0;
      for (let k = 0, b = row * d; k < d; k++, b++) dot += q[k]! * vectors[b]!;
      const sim = dot / (qn * this.norms[j]!);
      if (best.length < n || sim > best[best.length - 1]!.sim) {
        best.push({ row, sim });
        best.sort((a, b) => b.sim - a.sim);
        if (best.length > n) best.pop();
      }
    }
    return best.map((b) => ({ word: words[b.row]!, similarity: Number(b.sim.toFixed(4)) }));
  }
}
