// Where BM25's posting lists live. Most terms of a real vocabulary are rare (SciFact's 9,097 chunks have 26,289 terms,
// most in a handful of chunks), and a pair of typed arrays of a term's own cost V8 a few hundred bytes before its first
// posting (the array objects, their ArrayBuffers and backing stores), several times its postings. So a list of up to
// 48 entries is a slice of shared blocks, in a few capacity classes; a list that outgrows its slice moves to a
// larger one and leaves its slice to the next list of that class. Longer lists get arrays of their own.

/** One term's postings: its documents' slots ascending and their term frequencies, at [at, at + length) of the arrays. */
export interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  at: number;
  length: number;
  capacity: number;
  /** Index of the shared block holding the list, or -1 for arrays of its own. In a block, capacity is a class size. */
  block: number;
  /** Live documents with the term (removals lower it at once; their entries go at the next compaction). */
  df: number;
}

/** Slice sizes of small lists, each 1.5x the one before (the growth of the arrays of a long list). */
const CLASSES = [4, 6, 9, 14, 21, 32, 48];
/** Blocks start small (a workspace of a few chunks holds ~6 KB of them) and double up to the largest. */
const FIRST_BLOCK = 1 << 10;
const BLOCK = 1 << 16;

const classOf = (capacity: number): number => CLASSES.findIndex((c) => c >= capacity);

export class PostingStore {
  private readonly docBlocks: Int32Array[] = [];
  private readonly tfBlocks: Uint16Array[] = [];
  private blockUsed = 0;
  private blockBytes = 0;
  /** Per class, the slices lists have moved out of, as block * BLOCK + offset (a block is at most BLOCK long). */
  private readonly free: number[][] = CLASSES.map(() => []);
  private ownBytes = 0;

  /** An empty list; it gets its room at its first entry, or from reserve(). */
  create(): Postings {
    return { docs: EMPTY_DOCS, tfs: EMPTY_TFS, at: 0, length: 0, capacity: 0, block: -1, df: 0 };
  }

  /** Room for at least `capacity` entries in a list that has none yet (a bulk load or a restore knows its length). */
  reserve(p: Postings, capacity: number): void {
    if (p.capacity > 0) throw new Error("postings: reserve() on a list that has room already");
    this.place(p, capacity);
  }

  /** Appends a document's entry (slots arrive ascending), moving the list to a larger slice when it is full. */
  append(p: Postings, slot: number, tf: number): void {
    // Growth by 1.5 rather than 2: postings are most of the index's memory, and slack is a third of that at 2.
    if (p.length === p.capacity) this.move(p, Math.max(CLASSES[0]!, Math.ceil(p.capacity * 1.5)));
    p.docs[p.at + p.length] = slot;
    p.tfs[p.at + p.length] = tf;
    p.length++;
    p.df++;
  }

  /** Bytes of every block and of the lists' own arrays. */
  bytes(): number {
    return this.blockBytes + this.ownBytes;
  }

  private move(p: Postings, capacity: number): void {
    const { docs, tfs, at, length } = p;
    this.release(p);
    this.place(p, capacity);
    p.docs.set(docs.subarray(at, at + length), p.at);
    p.tfs.set(tfs.subarray(at, at + length), p.at);
  }

  /** Points `p` at an unused slice, or arrays of its own, of at least `capacity` (its entries are the caller's). */
  private place(p: Postings, capacity: number): void {
    const c = classOf(capacity);
    if (c < 0) {
      p.docs = new Int32Array(capacity);
      p.tfs = new Uint16Array(capacity);
      p.at = 0;
      p.capacity = capacity;
      p.block = -1;
      this.ownBytes += capacity * ENTRY;
      return;
    }
    const size = CLASSES[c]!;
    let where = this.free[c]!.pop();
    if (where === undefined) {
      if (this.docBlocks.length === 0 || this.blockUsed + size > this.docBlocks.at(-1)!.length) {
        const length = Math.min(BLOCK, FIRST_BLOCK << this.docBlocks.length);
        this.docBlocks.push(new Int32Array(length));
        this.tfBlocks.push(new Uint16Array(length));
        this.blockBytes += length * ENTRY;
        this.blockUsed = 0;
      }
      where = (this.docBlocks.length - 1) * BLOCK + this.blockUsed;
      this.blockUsed += size;
    }
    p.block = Math.floor(where / BLOCK);
    p.docs = this.docBlocks[p.block]!;
    p.tfs = this.tfBlocks[p.block]!;
    p.at = where % BLOCK;
    p.capacity = size;
  }

  private release(p: Postings): void {
    if (p.block >= 0) this.free[classOf(p.capacity)]!.push(p.block * BLOCK + p.at);
    else this.ownBytes -= p.capacity * ENTRY;
  }
}

/** Bytes of one entry: its slot and its term frequency. */
const ENTRY = Int32Array.BYTES_PER_ELEMENT + Uint16Array.BYTES_PER_ELEMENT;
const EMPTY_DOCS = new Int32Array(0);
const EMPTY_TFS = new Uint16Array(0);
