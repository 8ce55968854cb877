// Nearest words in the GloVe table (manas' query expansion): sign-bit Hamming prefilter over the most frequent words,
// exact cosine over the closest few hundred, cached per word (an exact scan cost ~5 ms a word on a query's hot path).
import type { WordNeighbours } from "../ports.ts";
import type { GloveTable } from "./glove-format.ts";

/** Candidates: the most frequent plain lowercase words; rarer ones are mostly names and typos, useless as expansions. */
export const NEIGHBOUR_VOCABULARY = 40_000;
const CACHE_WORDS = 50_000;
/** Candidates kept by the Hamming prefilter for the exact cosine. */
const SHORTLIST = 256;

export class GloveNeighbours implements WordNeighbours {
  private readonly rows: Int32Array;
  private readonly norms: Float32Array;
  /** Per candidate, its vector's sign bits (words x 32 bits). */
  private readonly signs: Uint32Array;
  private readonly words32: number;
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
    this.words32 = Math.ceil(d / 32);
    this.signs = new Uint32Array(rows.length * this.words32);
    rows.forEach((row, j) => {
      let sq = 0;
      for (let k = row * d; k < row * d + d; k++) sq += table.vectors[k]! * table.vectors[k]!;
      this.norms[j] = Math.sqrt(sq);
      this.signs.set(this.signBits(table.vectors.subarray(row * d, row * d + d)), j * this.words32);
    });
  }

  private signBits(v: Int8Array): Uint32Array {
    const out = new Uint32Array(this.words32);
    for (let k = 0; k < v.length; k++) if (v[k]! > 0) out[k >>> 5]! |= 1 << (k & 31);
    return out;
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
    for (const j of this.shortlist(this.signBits(q))) {
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

  /** The SHORTLIST candidates with the fewest differing sign bits (ties at the cut-off in vocabulary order). */
  private shortlist(q: Uint32Array): number[] {
    const n = this.rows.length;
    const w = this.words32;
    const signs = this.signs;
    const dist = new Uint8Array(n);
    const histogram = new Uint32Array(w * 32 + 1);
    for (let j = 0, b = 0; j < n; j++) {
      let h = 0;
      for (let k = 0; k < w; k++, b++) {
        // Inline popcount (a call per word cost a third of the scan).
        let x = signs[b]! ^ q[k]!;
        x -= (x >>> 1) & 0x55555555;
        x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
        h += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
      }
      dist[j] = h;
      histogram[h]!++;
    }
    // Every row closer than `cut`, then rows at exactly `cut` until the list is full.
    let cut = 0;
    let below = 0;
    for (; cut < histogram.length && below + histogram[cut]! <= SHORTLIST; cut++) below += histogram[cut]!;
    let room = SHORTLIST - below;
    const out: number[] = [];
    for (let j = 0; j < n; j++) {
      const d = dist[j]!;
      if (d < cut) out.push(j);
      else if (d === cut && room > 0) {
        out.push(j);
        room--;
      }
    }
    return out;
  }
}
