// In-memory BM25 inverted index over typed arrays: the lexical signal, fast enough for the recall hot path.
import { TopK, type Scored } from "./topk.ts";

const K1 = 1.2;
const B = 0.75;

interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  length: number;
  df: number;
}

/** Documents are identified by caller ids (e.g. chunk row ids); internally by dense slots. */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly slotOf = new Map<number, number>();
  private ids = new Int32Array(1024);
  private lengths = new Float32Array(1024);
  private docTerms: (Int32Array | null)[] = [];
  private slots = 0;
  private live = 0;
  private totalLength = 0;
  private deadPostings = 0;
  private acc = new Float64Array(1024);

  get size(): number {
    return this.live;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  add(id: number, terms: readonly string[]): void {
    if (this.slotOf.has(id)) return;
    const slot = this.slots++;
    this.ensureSlots(this.slots);
    this.slotOf.set(id, slot);
    this.ids[slot] = id;
    this.lengths[slot] = terms.length;
    const counts = new Map<number, number>();
    for (const term of terms) {
      const t = this.termId(term);
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const unique = new Int32Array(counts.size);
    let i = 0;
    for (const [t, tf] of counts) {
      unique[i++] = t;
      this.appendPosting(t, slot, Math.min(tf, 65_535));
    }
    this.docTerms[slot] = unique;
    this.live++;
    this.totalLength += terms.length;
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    const terms = this.docTerms[slot];
    if (terms) for (const t of terms) this.postings[t]!.df--;
    this.deadPostings += terms?.length ?? 0;
    this.docTerms[slot] = null;
    this.live--;
    this.totalLength -= this.lengths[slot] ?? 0;
    if (this.deadPostings > 50_000 && this.deadPostings > this.live * 20) this.compact();
  }

  /** Upper bound of any document's score for these terms: the normaliser that makes BM25 comparable across queries. */
  maxScore(terms: readonly string[]): number {
    let max = 0;
    for (const [t, qtf] of queryTerms(terms)) {
      const p = this.lookup(t);
      if (p) max += qtf * this.idf(p.df) * (K1 + 1);
    }
    return max;
  }

  /** The k best documents for the query terms among those `accept` admits. */
  search(terms: readonly string[], k: number, accept?: (id: number) => boolean): Scored[] {
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    const touched: number[] = [];
    const acc = this.acc;
    for (const [t, qtf] of queryTerms(terms)) {
      const p = this.lookup(t);
      if (!p || p.df === 0) continue;
      const idf = qtf * this.idf(p.df);
      for (let i = 0; i < p.length; i++) {
        const slot = p.docs[i]!;
        if (this.docTerms[slot] === null) continue;
        const tf = p.tfs[i]!;
        const norm = K1 * (1 - B + (B * this.lengths[slot]!) / avg);
        if (acc[slot] === 0) touched.push(slot);
        acc[slot]! += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    const top = new TopK(k);
    for (const slot of touched) {
      const score = acc[slot]!;
      acc[slot] = 0;
      const id = this.ids[slot]!;
      if (score > top.minScore && (!accept || accept(id))) top.push(id, score);
    }
    return top.sorted();
  }

  /** BM25 of one document (0 when absent): scores candidates another retriever found. */
  score(terms: readonly string[], id: number): number {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return 0;
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    let total = 0;
    for (const [t, qtf] of queryTerms(terms)) {
      const p = this.lookup(t);
      if (!p) continue;
      const i = indexOf(p, slot);
      if (i < 0) continue;
      const tf = p.tfs[i]!;
      const norm = K1 * (1 - B + (B * this.lengths[slot]!) / avg);
      total += (qtf * this.idf(p.df) * tf * (K1 + 1)) / (tf + norm);
    }
    return total;
  }

  private idf(df: number): number {
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
  }

  private lookup(term: string): Postings | undefined {
    const t = this.termIds.get(term);
    return t === undefined ? undefined : this.postings[t];
  }

  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.postings.length;
      this.termIds.set(term, t);
      this.postings.push({ docs: new Int32Array(4), tfs: new Uint16Array(4), length: 0, df: 0 });
    }
    return t;
  }

  private appendPosting(t: number, slot: number, tf: number): void {
    const p = this.postings[t]!;
    if (p.length === p.docs.length) {
      const docs = new Int32Array(p.length * 2);
      docs.set(p.docs);
      const tfs = new Uint16Array(p.length * 2);
      tfs.set(p.tfs);
      p.docs = docs;
      p.tfs = tfs;
    }
    p.docs[p.length] = slot;
    p.tfs[p.length] = tf;
    p.length++;
    p.df++;
  }

  private ensureSlots(n: number): void {
    if (n <= this.ids.length) return;
    const size = Math.max(n, this.ids.length * 2);
    this.ids = grow(this.ids, new Int32Array(size));
    this.lengths = grow(this.lengths, new Float32Array(size));
    this.acc = new Float64Array(size);
  }

  /** Drops postings of removed documents once they dominate. */
  private compact(): void {
    for (const p of this.postings) {
      let w = 0;
      for (let i = 0; i < p.length; i++) {
        if (this.docTerms[p.docs[i]!] === null) continue;
        p.docs[w] = p.docs[i]!;
        p.tfs[w] = p.tfs[i]!;
        w++;
      }
      p.length = w;
    }
    this.deadPostings = 0;
  }
}

function grow<T extends Int32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function queryTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Postings are appended in slot order, so binary search finds a slot. */
function indexOf(p: Postings, slot: number): number {
  let lo = 0;
  let hi = p.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = p.docs[mid]!;
    if (v === slot) return mid;
    if (v < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
