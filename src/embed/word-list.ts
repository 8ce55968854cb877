// GloVe's words as one UTF-8 byte string with an open-addressing hash table over it. A Map of the ~400k words held
// ~29 MB of V8 heap in every thread that embeds (the Map, the strings, the array); these typed arrays are ~7 MB, built
// once over shared memory, and an ingest worker receives them without a copy.

/** What WordList.of needs of a list a worker thread received (structured clone keeps the fields, not the class). */
export interface WordListData {
  /** The words in row order, joined by "\n". */
  readonly bytes: Uint8Array;
  /** Row -> offset of its word in `bytes`; the last entry is one past the end (as if a "\n" followed). */
  readonly starts: Int32Array;
  /** Hash table: row + 1, or 0 for an empty slot; its length is a power of two at least twice the rows. */
  readonly slots: Int32Array;
}

const NEWLINE = 0x0a;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

export class WordList implements WordListData {
  readonly length: number;
  private readonly mask: number;
  private readonly text: Buffer;
  /** UTF-8 of a looked-up word with characters beyond ASCII (rare: the vocabulary is ASCII). */
  private scratch = new Uint8Array(64);

  private constructor(
    readonly bytes: Uint8Array,
    readonly starts: Int32Array,
    readonly slots: Int32Array,
  ) {
    this.length = starts.length - 1;
    this.mask = slots.length - 1;
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The list a worker received as plain fields, or the list itself. */
  static of(data: WordListData): WordList {
    return data instanceof WordList ? data : new WordList(data.bytes, data.starts, data.slots);
  }

  static fromWords(words: readonly string[]): WordList {
    const utf8 = encoder.encode(words.join("\n"));
    const bytes = new Uint8Array(new SharedArrayBuffer(utf8.length));
    bytes.set(utf8);
    const list = WordList.fromBytes(bytes, words.length);
    if (!list) throw new Error("word list: a word holds a newline");
    return list;
  }

  /** Indexes `count` words joined by "\n" in `bytes` (kept, not copied: the cache file's section); null if not that many. */
  static fromBytes(bytes: Uint8Array, count: number): WordList | null {
    const starts = sharedInt32(count + 1);
    let row = 0;
    for (let at = 0; at < bytes.length && row < count; at++) if (bytes[at] === NEWLINE) starts[++row] = at + 1;
    if (count === 0 ? bytes.length > 0 : row !== count - 1) return null;
    starts[count] = bytes.length + 1; // as if the last word too were followed by "\n"
    let size = 2;
    while (size < count * 2) size *= 2;
    const list = new WordList(bytes, starts, sharedInt32(size));
    // A word listed twice resolves to its last row, as a Map filled in row order would.
    for (let r = 0; r < count; r++) list.slots[list.slotOf(bytes, starts[r]!, starts[r + 1]! - 1)] = r + 1;
    return list;
  }

  /** The row of `word`, or -1 when it is not in the list (a lone surrogate reads as U+FFFD; tokens hold none). */
  rowOf(word: string): number {
    let hash = FNV_OFFSET;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c >= 0x80) return this.rowOfEncoded(word);
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    // The probe of slotOf, comparing characters with bytes: no encoding on the hot path (embedding, query words).
    const { bytes, starts, slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const row = slots[slot]! - 1;
      if (row < 0) return -1;
      const start = starts[row]!;
      if (starts[row + 1]! - 1 - start !== word.length) continue;
      let i = 0;
      while (i < word.length && bytes[start + i] === word.charCodeAt(i)) i++;
      if (i === word.length) return row;
    }
  }

  /** The word at `row`. */
  at(row: number): string {
    return this.text.toString("utf8", this.starts[row], this.starts[row + 1]! - 1);
  }

  toArray(): string[] {
    return Array.from({ length: this.length }, (_, row) => this.at(row));
  }

  private rowOfEncoded(word: string): number {
    if (this.scratch.length < word.length * 3) this.scratch = new Uint8Array(word.length * 3);
    const { written } = encoder.encodeInto(word, this.scratch);
    return this.slots[this.slotOf(this.scratch, 0, written)]! - 1;
  }

  /** The slot holding the word source[from, to), or the empty slot where it would go. */
  private slotOf(source: Uint8Array, from: number, to: number): number {
    const { bytes, starts, slots, mask } = this;
    for (let slot = hashBytes(source, from, to) & mask; ; slot = (slot + 1) & mask) {
      const row = slots[slot]! - 1;
      if (row < 0) return slot;
      const start = starts[row]!;
      if (starts[row + 1]! - 1 - start !== to - from) continue;
      let i = 0;
      while (from + i < to && bytes[start + i] === source[from + i]) i++;
      if (from + i === to) return slot;
    }
  }
}

/** FNV-1a over bytes[from, to); for ASCII the same as rowOf's loop over the string's characters. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash;
}

/** On shared memory, so that a worker thread sees the same table instead of a copy. */
function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}
