// In-memory BM25 inverted index over typed arrays: the lexical signal, fast enough for the recall hot path.
import { TopK, type Scored } from "../domain/retrieval/topk.ts";
import { PostingStore, type Postings } from "./postings.ts";
import { copyArray, materialize, type Sourced } from "./snapshot.ts";

/** What a map entry or a small object costs in V8, roughly (key, value, table slot, object header). */
export const ENTRY_BYTES = 80;
const K1 = 1.2;
const B = 0.75;

/**
 * Room a restored array gets beyond its contents, as a share of them (an eighth). Saved arrays are trimmed, so without
 * it the first writes after a restart grew every posting list, the arena and the slots at once: a 70-100 ms stall at
 * 100k chunks for the recalls waiting behind that catch-up. Growth by 1.5x leaves a quarter on average.
 */
export const restoredRoom = (n: number): number => n + Math.max(4, Math.ceil(n / 8));

/** Everything an index holds, as saved (snapshot.ts): its counts, its terms by id, and its arrays trimmed to use. */
export interface Bm25State {
  counts: { slots: number; live: number; totalLength: number; deadPostings: number };
  terms: string[];
  arrays: {
    ids: Int32Array;
    lengths: Float32Array;
    termStart: Int32Array;
    termCount: Int32Array;
    arena: Int32Array;
    /** Every term's postings back to back, in term id order. */
    postingDocs: Int32Array;
    postingTfs: Uint16Array;
    postingLength: Int32Array;
    postingDf: Int32Array;
  };
}

/** Documents are identified by caller ids (e.g. chunk row ids); internally by dense slots. */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly lists = new PostingStore();
  private readonly slotOf = new Map<number, number>();
  private ids = new Int32Array(1024);
  private lengths = new Float32Array(1024);
  /**
   * Each document's distinct term ids, back to back in one arena (a typed array per document cost ~200 bytes of
   * overhead each: ~20 MB at 100k chunks); termCount -1 marks a removed document.
   */
  private terms = new Int32Array(1 << 16);
  private termsUsed = 0;
  private termStart = new Int32Array(1024);
  private termCount = new Int32Array(1024);
  private slots = 0;
  private live = 0;
  private totalLength = 0;
  private deadPostings = 0;
  private acc = new Float64Array(1024);
  /** Slots a search has scored so far (reused by every search: an array per query was much of recall's garbage). */
  private touched = new Int32Array(1024);
  /** kthScore's selection, kept between calls (a search calls it after most of its terms). */
  private kth: TopK | null = null;
  /**
   * Each arena entry's term frequency while a bulk load defers the postings (null otherwise). A load of every row then
   * builds each posting list once, at its size, instead of growing it by 1.5x copies from four entries: the discarded
   * copies were garbage V8 was slow to give back (a first start at 100k settled 20-70 MB higher), and the growth left
   * a quarter of the postings' memory as slack.
   */
  private loadingTfs: Uint16Array | null = null;

  get size(): number {
    return this.live;
  }

  /** Slots used so far (removed documents keep theirs): slot order is write order. */
  get slotCount(): number {
    return this.slots;
  }

  /**
   * Everything the index holds, to be saved. Removed documents leave no trace in it: their postings and term lists are
   * compacted away first, and terms no live document has are left out (ids renumbered in order, so lists stay sorted).
   */
  state(): Bm25State {
    if (this.deadPostings > 0) this.compact();
    const renumbered = new Int32Array(this.postings.length).fill(-1);
    const terms: string[] = [];
    for (const [term, t] of this.termIds) if (this.postings[t]!.length > 0) renumbered[t] = terms.push(term) - 1;
    let total = 0;
    for (const p of this.postings) total += p.length;
    const postingDocs = new Int32Array(total);
    const postingTfs = new Uint16Array(total);
    const postingLength = new Int32Array(terms.length);
    const postingDf = new Int32Array(terms.length);
    let at = 0;
    this.postings.forEach((p, t) => {
      if (renumbered[t]! < 0) return;
      postingDocs.set(p.docs.subarray(p.at, p.at + p.length), at);
      postingTfs.set(p.tfs.subarray(p.at, p.at + p.length), at);
      at += p.length;
      postingLength[renumbered[t]!] = p.length;
      postingDf[renumbered[t]!] = p.df;
    });
    const arena = this.terms.slice(0, this.termsUsed).map((t) => renumbered[t]!);
    const n = this.slots;
    return {
      counts: { slots: n, live: this.live, totalLength: this.totalLength, deadPostings: 0 },
      terms,
      arrays: {
        ids: this.ids.slice(0, n),
        lengths: this.lengths.slice(0, n),
        termStart: this.termStart.slice(0, n),
        termCount: this.termCount.slice(0, n),
        arena,
        postingDocs,
        postingTfs,
        postingLength,
        postingDf,
      },
    };
  }

  /**
   * The index a state() was taken from, exactly (further adds and removes work as on the original). Each array is copied
   * once, into the index's own arrays with room to grow: from memory, or by parts from a saved file.
   */
  static fromState(s: Omit<Bm25State, "arrays"> & { arrays: Sourced<Bm25State["arrays"]> }): Bm25Index {
    const index = new Bm25Index();
    const { ids, lengths, termStart, termCount, arena, postingDocs, postingTfs } = s.arrays;
    const postingLength = materialize(s.arrays.postingLength, Int32Array);
    const postingDf = materialize(s.arrays.postingDf, Int32Array);
    const n = s.counts.slots;
    if (s.terms.length !== postingLength.length || postingDf.length !== postingLength.length)
      throw new Error("bm25 state: term counts disagree");
    if ([ids, lengths, termStart, termCount].some((a) => a.length !== n) || postingTfs.length !== postingDocs.length)
      throw new Error("bm25 state: sizes disagree");
    let at = 0;
    s.terms.forEach((term, t) => {
      const length = postingLength[t]!;
      if (length < 0 || at + length > postingDocs.length) throw new Error("bm25 state: postings disagree");
      const p = index.lists.create();
      index.lists.reserve(p, restoredRoom(length));
      copyArray(postingDocs, p.docs, p.at, at, length);
      copyArray(postingTfs, p.tfs, p.at, at, length);
      p.length = length;
      p.df = postingDf[t]!;
      at += length;
      index.termIds.set(term, t);
      index.postings.push(p);
    });
    if (at !== postingDocs.length) throw new Error("bm25 state: postings disagree");
    index.ensureSlots(restoredRoom(n));
    copyArray(ids, index.ids);
    copyArray(lengths, index.lengths);
    copyArray(termStart, index.termStart);
    copyArray(termCount, index.termCount);
    index.reserveTerms(restoredRoom(arena.length));
    copyArray(arena, index.terms);
    index.termsUsed = arena.length;
    for (let slot = 0; slot < n; slot++) if (index.termCount[slot]! >= 0) index.slotOf.set(index.ids[slot]!, slot);
    index.slots = n;
    index.live = s.counts.live;
    index.totalLength = s.counts.totalLength;
    index.deadPostings = s.counts.deadPostings;
    return index;
  }

  /** Bytes held, estimated: typed arrays exactly, each map entry and postings object at V8's usual ~80 bytes. */
  approxBytes(): number {
    const postings = this.lists.bytes() + this.postings.length * ENTRY_BYTES;
    const arrays = [this.ids, this.lengths, this.terms, this.termStart, this.termCount, this.acc].reduce(
      (n, a) => n + a.byteLength,
      0,
    );
    return postings + arrays + (this.termIds.size + this.slotOf.size) * ENTRY_BYTES;
  }

  /** Starts a bulk load into an empty index: until endLoad(), add() only records documents (no search, no remove). */
  beginLoad(): void {
    if (this.slots > 0 || this.loadingTfs) throw new Error("bm25: a bulk load starts on an empty index");
    this.loadingTfs = new Uint16Array(this.terms.length);
  }

  /** Builds every posting list of a bulk load at its length and an eighth more (as a restored one), in slot order. */
  endLoad(): void {
    const tfs = this.loadingTfs;
    if (!tfs) return;
    this.loadingTfs = null;
    const df = new Int32Array(this.postings.length);
    for (let i = 0; i < this.termsUsed; i++) df[this.terms[i]!]!++;
    this.postings.forEach((p, t) => this.lists.reserve(p, restoredRoom(df[t]!)));
    for (let slot = 0; slot < this.slots; slot++) {
      const start = this.termStart[slot]!;
      for (let i = start; i < start + this.termCount[slot]!; i++) this.appendPosting(this.terms[i]!, slot, tfs[i]!);
    }
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** The dense slot of a document (stable until it is removed; a removed one's slot is never reused). */
  slot(id: number): number | undefined {
    return this.slotOf.get(id);
  }

  /** The id of the document in a slot, or undefined when the slot is empty or its document was removed. */
  idAt(slot: number): number | undefined {
    return slot >= 0 && slot < this.slots && this.termCount[slot]! >= 0 ? this.ids[slot] : undefined;
  }

  /** Every document's id and slot, in slot order. */
  *documents(): Generator<[id: number, slot: number]> {
    for (let slot = 0; slot < this.slots; slot++) if (this.termCount[slot]! >= 0) yield [this.ids[slot]!, slot];
  }

  add(id: number, terms: readonly string[]): void {
    if (this.slotOf.has(id)) return;
    const slot = this.slots++;
    this.ensureSlots(this.slots);
    this.slotOf.set(id, slot);
    this.ids[slot] = id;
    this.lengths[slot] = terms.length;
    // Term ids sorted, then counted in runs: cheaper than a Map per document when loading 100k chunks.
    const ids = new Int32Array(terms.length);
    for (let i = 0; i < terms.length; i++) ids[i] = this.termId(terms[i]!);
    ids.sort();
    this.reserveTerms(ids.length);
    const start = this.termsUsed;
    const loading = this.loadingTfs;
    for (let i = 0; i < ids.length;) {
      let j = i + 1;
      while (j < ids.length && ids[j] === ids[i]) j++;
      const tf = Math.min(j - i, 65_535);
      if (loading) loading[this.termsUsed] = tf;
      else this.appendPosting(ids[i]!, slot, tf);
      this.terms[this.termsUsed++] = ids[i]!;
      i = j;
    }
    this.termStart[slot] = start;
    this.termCount[slot] = this.termsUsed - start;
    this.live++;
    this.totalLength += terms.length;
  }

  remove(id: number): void {
    if (this.loadingTfs) throw new Error("bm25: remove during a bulk load");
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    const start = this.termStart[slot]!;
    const count = this.termCount[slot]!;
    for (let i = start; i < start + count; i++) this.postings[this.terms[i]!]!.df--;
    this.deadPostings += count;
    this.termCount[slot] = -1;
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

  /**
   * The k best documents for the query terms among those `accept` admits. Exact, with MaxScore pruning: terms run
   * rarest first, and once the remaining terms' best possible contribution cannot lift an unseen document past the
   * current k-th score, they only update documents already seen (common terms stop costing a full posting scan).
   */
  search(terms: readonly string[], k: number, accept?: (id: number) => boolean): Scored[] {
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    const plan = [...queryTerms(terms)]
      .map(([t, qtf]) => ({ p: this.lookup(t), qtf }))
      .filter((q): q is { p: Postings; qtf: number } => q.p !== undefined && q.p.df > 0)
      .map(({ p, qtf }) => ({ p, w: qtf * this.idf(p.df) }))
      .sort((a, b) => b.w - a.w);
    const remaining = new Float64Array(plan.length + 1);
    for (let i = plan.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1]! + plan[i]!.w * (K1 + 1);
    const touched = this.touched;
    let seen = 0;
    const acc = this.acc;
    let best = 0;
    let threshold = 0;
    for (let i = 0; i < plan.length; i++) {
      const { p, w } = plan[i]!;
      const { docs, tfs, at } = p;
      const addOnlySeen = seen > 0 && remaining[i]! < threshold;
      if (addOnlySeen && seen * 16 < p.length) {
        for (let t = 0; t < seen; t++) {
          const slot = touched[t]!;
          const j = indexOf(p, slot);
          if (j >= 0) acc[slot]! += this.termScore(w, tfs[j]!, slot, avg);
        }
      } else {
        // A list whose every posting is live (df counts live ones) skips the removed-document check, a random read each.
        const clean = p.df === p.length;
        for (let j = at, end = at + p.length; j < end; j++) {
          const slot = docs[j]!;
          if (!clean && this.termCount[slot]! < 0) continue;
          const sofar = acc[slot]!;
          if (sofar === 0) {
            if (addOnlySeen) continue;
            touched[seen++] = slot;
          }
          const score = sofar + this.termScore(w, tfs[j]!, slot, avg);
          acc[slot] = score;
          if (score > best) best = score;
        }
      }
      // The k-th partial score only bounds what unseen documents must beat; computing it pays off once it can prune
      // (and only while a term is left: after the last one the top k below reads every score anyway).
      if (i + 1 < plan.length && remaining[i + 1]! < best) {
        threshold = this.kthScore(seen, k, accept);
        if (remaining[i + 1]! < threshold) seen = this.dropHopeless(seen, remaining[i + 1]!, threshold);
      }
    }
    const top = new TopK(k);
    for (let t = 0; t < seen; t++) {
      const slot = touched[t]!;
      const score = acc[slot]!;
      acc[slot] = 0;
      const id = this.ids[slot]!;
      if (score > top.minScore && (!accept || accept(id))) top.push(id, score);
    }
    return top.sorted();
  }

  private termScore(w: number, tf: number, slot: number, avg: number): number {
    return (w * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[slot]!) / avg));
  }

  /**
   * Drops the touched documents that cannot reach `threshold` even with every remaining term (`rest`): the k-th score
   * only grows, so none of them can be in the top k, and the remaining terms then look up only those that still can.
   * Returns how many stay touched.
   */
  private dropHopeless(seen: number, rest: number, threshold: number): number {
    let kept = 0;
    for (let t = 0; t < seen; t++) {
      const slot = this.touched[t]!;
      if (this.acc[slot]! + rest >= threshold) this.touched[kept++] = slot;
      else this.acc[slot] = 0;
    }
    return kept;
  }

  /** The k-th best accumulated score among the first `seen` touched documents that are admitted (0 while fewer than k). */
  private kthScore(seen: number, k: number, accept?: (id: number) => boolean): number {
    const top = this.kth?.k === k ? this.kth : (this.kth = new TopK(k));
    top.clear();
    for (let t = 0; t < seen; t++) {
      const slot = this.touched[t]!;
      const score = this.acc[slot]!;
      if (score > top.minScore && (!accept || accept(this.ids[slot]!))) top.push(slot, score);
    }
    return Math.max(0, top.minScore);
  }

  /**
   * BM25 of one document for these terms (0 when absent), as a function: it scores candidates another retriever found,
   * many per query, so the terms are looked up once rather than per candidate.
   */
  scorer(terms: readonly string[]): (id: number) => number {
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    const plan: { p: Postings; w: number }[] = [];
    for (const [t, qtf] of queryTerms(terms)) {
      const p = this.lookup(t);
      if (p) plan.push({ p, w: qtf * this.idf(p.df) });
    }
    return (id) => {
      const slot = plan.length > 0 ? this.slotOf.get(id) : undefined;
      if (slot === undefined) return 0;
      let total = 0;
      for (const { p, w } of plan) {
        const i = indexOf(p, slot);
        if (i >= 0) total += this.termScore(w, p.tfs[i]!, slot, avg);
      }
      return total;
    };
  }

  /**
   * Soft term matching: for each query term a document lacks, the best BM25 of the near words (by meaning) it has,
   * each weighted by its similarity to the query term; summed over the query terms. A query term the document has
   * counts nothing here (BM25 counts it). Per query term only its `perTerm` most similar words this index holds and no
   * more common than `maxShare` of the documents (common words say little).
   */
  softScorer(groups: readonly SoftGroup[], perTerm: number, maxShare: number): SoftScorer {
    const avg = this.live > 0 ? this.totalLength / this.live : 1;
    const plan = this.softPlan(groups, perTerm, maxShare);
    const score = (slot: number): number => {
      let total = 0;
      for (const { exact, near } of plan) {
        if (exact && indexOf(exact, slot) >= 0) continue;
        let best = 0;
        for (const { p, w } of near) {
          const i = indexOf(p, slot);
          if (i >= 0) best = Math.max(best, this.termScore(w, p.tfs[i]!, slot, avg));
        }
        total += best;
      }
      return total;
    };
    return {
      max: plan.reduce((m, g) => m + Math.max(...g.near.map((n) => n.w)) * (K1 + 1), 0),
      score: (id) => {
        const slot = plan.length > 0 ? this.slotOf.get(id) : undefined;
        return slot === undefined ? 0 : score(slot);
      },
      top: (k, accept) => {
        const slots = new Set<number>();
        for (const { near } of plan)
          for (const { p } of near)
            for (let j = p.at, end = p.at + p.length; j < end; j++)
              if (this.termCount[p.docs[j]!]! >= 0) slots.add(p.docs[j]!);
        const top = new TopK(k);
        for (const slot of slots) {
          const s = score(slot);
          const id = this.ids[slot]!;
          if (s > 0 && s > top.minScore && (!accept || accept(id))) top.push(id, s);
        }
        return top.sorted();
      },
    };
  }

  private softPlan(groups: readonly SoftGroup[], perTerm: number, maxShare: number) {
    const maxDf = Math.max(1, maxShare * this.live);
    return groups
      .map((g) => {
        const near: { p: Postings; w: number }[] = [];
        g.terms.forEach((t, i) => {
          const p = this.lookup(t);
          if (p && p.df > 0 && p.df <= maxDf && near.length < perTerm)
            near.push({ p, w: g.similarities[i]! * this.idf(p.df) });
        });
        const exact = this.lookup(g.exact);
        return { exact: exact && exact.df > 0 ? exact : null, near };
      })
      .filter((g) => g.near.length > 0);
  }

  /**
   * A document's distinct term ids, ascending (empty when absent): how chunks compare for near-duplicates. A view of the
   * arena, not a copy (a copy per candidate was a recall's largest allocation): the arena's written ranges never change
   * (growth and compaction move to a new array), so the view stays right while a request holds it.
   */
  termIdsOf(id: number): Int32Array {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return NO_TERMS;
    const start = this.termStart[slot]!;
    return this.terms.subarray(start, start + this.termCount[slot]!);
  }

  /** Live documents with the term. */
  df(term: string): number {
    return this.lookup(term)?.df ?? 0;
  }

  /** BM25 of one document for these terms (0 when absent). */
  score(terms: readonly string[], id: number): number {
    return this.scorer(terms)(id);
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
      this.postings.push(this.lists.create());
    }
    return t;
  }

  private appendPosting(t: number, slot: number, tf: number): void {
    this.lists.append(this.postings[t]!, slot, tf);
  }

  private ensureSlots(n: number): void {
    if (n <= this.ids.length) return;
    const size = Math.max(n, this.ids.length * 2);
    this.ids = grow(this.ids, new Int32Array(size));
    this.lengths = grow(this.lengths, new Float32Array(size));
    this.termStart = grow(this.termStart, new Int32Array(size));
    this.termCount = grow(this.termCount, new Int32Array(size));
    this.acc = new Float64Array(size);
    this.touched = new Int32Array(size);
  }

  /** Room for `n` more term ids in the arena (grown by 1.5x, like postings). */
  private reserveTerms(n: number): void {
    if (this.termsUsed + n <= this.terms.length) return;
    const size = Math.max(this.termsUsed + n, Math.ceil(this.terms.length * 1.5));
    this.terms = grow(this.terms, new Int32Array(size));
    if (this.loadingTfs) this.loadingTfs = grow(this.loadingTfs, new Uint16Array(size));
  }

  /** Drops postings and arena entries of removed documents once they dominate. */
  private compact(): void {
    let used = 0;
    // Into a new arena: termIdsOf's views of the old one stay as they were.
    const terms = new Int32Array(this.terms.length);
    for (let slot = 0; slot < this.slots; slot++) {
      const count = this.termCount[slot]!;
      if (count < 0) continue;
      terms.set(this.terms.subarray(this.termStart[slot]!, this.termStart[slot]! + count), used);
      this.termStart[slot] = used;
      used += count;
    }
    this.terms = terms;
    this.termsUsed = used;
    for (const p of this.postings) {
      let w = p.at;
      for (let i = p.at; i < p.at + p.length; i++) {
        if (this.termCount[p.docs[i]!]! < 0) continue;
        p.docs[w] = p.docs[i]!;
        p.tfs[w] = p.tfs[i]!;
        w++;
      }
      p.length = w - p.at;
    }
    this.deadPostings = 0;
  }
}

/** `to` holding `from` at its start: a typed array grown into a larger one. */
export function grow<T extends Int8Array | Uint8Array | Int32Array | Float32Array | Float64Array | Uint16Array>(
  from: T,
  to: T,
): T {
  to.set(from);
  return to;
}

/** A query term and its near words by meaning (BM25 terms, most similar first) with their similarities. */
export interface SoftGroup {
  exact: string;
  terms: readonly string[];
  similarities: readonly number[];
}

/** Soft matching over one index state: a document's score, and the best `k` documents with any near word. */
export interface SoftScorer {
  /** The best score any document could get (the scale when the query's own terms are all absent). */
  max: number;
  score(id: number): number;
  top(k: number, accept?: (id: number) => boolean): Scored[];
}

const NO_TERMS = new Int32Array(0);

function queryTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Where `slot` sits in the list's arrays, or -1: postings are appended in slot order, so binary search finds it. */
function indexOf(p: Postings, slot: number): number {
  let lo = p.at;
  let hi = p.at + p.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = p.docs[mid]!;
    if (v === slot) return mid;
    if (v < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
