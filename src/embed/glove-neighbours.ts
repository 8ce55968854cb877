// Nearest words in the GloVe table (manas' query expansion): sign-bit Hamming prefilter over the most frequent words,
// exact cosine over the closest few hundred (an exact scan cost ~5 ms a word on a query's hot path). The most frequent
// words' answers are precomputed with the cache (a search still costs ~0.4 ms, several per query); others are cached.
import type { WordNeighbours } from "../ports/embedding.ts";
import type { GloveTable, NeighbourTable } from "./glove-format.ts";
import { hammingDistances } from "../domain/retrieval/popcount.ts";

/** Candidates: the most frequent plain lowercase words; rarer ones are mostly names and typos, useless as expansions. */
export const NEIGHBOUR_VOCABULARY = 40_000;
const CACHE_WORDS = 50_000;
/** Candidates kept by the Hamming prefilter for the exact cosine. */
const SHORTLIST = 256;
/** Words with a precomputed answer (the most frequent candidates: most of any query's words) and answers kept per word. */
export const TABLE_WORDS = 10_000;
export const TABLE_K = 4;

export class GloveNeighbours implements WordNeighbours {
  private readonly rows: Int32Array;
  private readonly norms: Float32Array;
  /** Per candidate, its vector's sign bits (words x 32 bits); signed so that V8 keeps the XORs in small integers. */
  private readonly signs: Int32Array;
  private readonly words32: number;
  private readonly cache = new Map<string, { word: string; similarity: number }[]>();
  /** Row of a word -> its entry in the precomputed table (empty when the table is absent or was built otherwise). */
  private readonly entryOf = new Map<number, number>();

  constructor(private readonly table: GloveTable) {
    const rows: number[] = [];
    for (let i = 0; i < table.words.length; i++)
      if (table.ranks[i]! < NEIGHBOUR_VOCABULARY && /^[a-z]{2,}$/.test(table.words.at(i))) rows.push(i);
    this.rows = Int32Array.from(rows);
    this.norms = new Float32Array(rows.length);
    const d = table.dimensions;
    this.words32 = Math.ceil(d / 32);
    this.signs = new Int32Array(rows.length * this.words32);
    rows.forEach((row, j) => {
      let sq = 0;
      for (let k = row * d; k < row * d + d; k++) sq += table.vectors[k]! * table.vectors[k]!;
      this.norms[j] = Math.sqrt(sq);
      this.signs.set(this.signBits(table.vectors.subarray(row * d, row * d + d)), j * this.words32);
    });
    const nb = table.neighbours;
    if (nb && nb.vocabulary === NEIGHBOUR_VOCABULARY && nb.shortlist === SHORTLIST)
      nb.heads.forEach((row, i) => this.entryOf.set(row, i));
  }

  /** The table of the TABLE_WORDS most frequent candidates' TABLE_K nearest words, exactly as search() finds them. */
  buildTable(): NeighbourTable {
    const n = Math.min(TABLE_WORDS, this.rows.length);
    const heads = this.rows.slice(0, n);
    const rows = new Int32Array(n * TABLE_K).fill(-1);
    const cosines = new Int16Array(n * TABLE_K);
    heads.forEach((head, i) => {
      this.search(this.table.words.at(head), TABLE_K).forEach((nb, j) => {
        rows[i * TABLE_K + j] = this.table.words.rowOf(nb.word);
        cosines[i * TABLE_K + j] = Math.round(nb.similarity * 1e4);
      });
    });
    return { vocabulary: NEIGHBOUR_VOCABULARY, shortlist: SHORTLIST, k: TABLE_K, heads, rows, cosines };
  }

  private signBits(v: Int8Array): Int32Array {
    const out = new Int32Array(this.words32);
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
    const self = this.table.words.rowOf(word);
    if (self < 0 || n <= 0) return [];
    const entry = n <= TABLE_K ? this.entryOf.get(self) : undefined;
    if (entry !== undefined) return this.fromTable(entry, n);
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
    return best.map((b) => ({ word: words.at(b.row), similarity: Number(b.sim.toFixed(4)) }));
  }

  /** A precomputed answer: the top n of the top TABLE_K is the top n (the search keeps ties in scan order either way). */
  private fromTable(entry: number, n: number): { word: string; similarity: number }[] {
    const { rows, cosines } = this.table.neighbours!;
    const out: { word: string; similarity: number }[] = [];
    for (let j = entry * TABLE_K; j < entry * TABLE_K + n && rows[j]! >= 0; j++)
      out.push({ word: this.table.words.at(rows[j]!), similarity: cosines[j]! / 1e4 });
    return out;
  }

  /** The SHORTLIST candidates with the fewest differing sign bits (ties at the cut-off in vocabulary order). */
  private shortlist(q: Int32Array): number[] {
    const n = this.rows.length;
    const dist = new Uint16Array(n);
    const histogram = new Uint32Array(this.words32 * 32 + 1);
    hammingDistances(this.signs, this.words32, q, dist, histogram);
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

/** The table with its neighbour table computed (once, when the cache is built: ~5 s for TABLE_WORDS words). */
export function withNeighbourTable(table: GloveTable): GloveTable {
  return { ...table, neighbours: new GloveNeighbours({ ...table, neighbours: null }).buildTable() };
}
