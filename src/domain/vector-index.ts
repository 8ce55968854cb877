// In-memory nearest-neighbour search over unit vectors: exact for small sets, sign-bit prefilter + exact rerank beyond.
import { TopK, type Scored } from "./topk.ts";

/** Above this many vectors, a Hamming prefilter on sign bits picks candidates for exact cosine. */
const EXACT_LIMIT = 20_000;
const MEAN_SAMPLE = 1_024;

export class VectorIndex {
  private data: Float32Array;
  private codes: Uint32Array;
  private readonly words: number;
  private readonly slotOf = new Map<number, number>();
  private ids = new Int32Array(1024);
  private alive = new Uint8Array(1024);
  private slots = 0;
  private mean: Float32Array | null = null;

  constructor(readonly dimensions: number) {
    this.words = Math.ceil(dimensions / 32);
    this.data = new Float32Array(1024 * dimensions);
    this.codes = new Uint32Array(1024 * this.words);
  }

  get size(): number {
    return this.slotOf.size;
  }

  add(id: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions || this.slotOf.has(id)) return;
    const slot = this.slots++;
    this.ensure(this.slots);
    this.slotOf.set(id, slot);
    this.ids[slot] = id;
    this.alive[slot] = 1;
    this.data.set(vector, slot * this.dimensions);
    if (this.mean) this.encode(slot);
    else if (this.slots >= MEAN_SAMPLE) this.freezeMean();
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = 0;
  }

  get(id: number): Float32Array | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** Cosine similarity of the query with one stored vector, or null when absent. */
  similarity(query: Float32Array, id: number): number | null {
    const slot = this.slotOf.get(id);
    return slot === undefined ? null : this.dot(query, slot);
  }

  search(query: Float32Array, k: number, accept?: (id: number) => boolean): Scored[] {
    const top = new TopK(k);
    const candidates = this.mean && this.slotOf.size > EXACT_LIMIT ? this.prefilter(query, Math.max(k * 25, 500), accept) : null;
    const visit = (slot: number): void => {
      if (!this.alive[slot]) return;
      const id = this.ids[slot]!;
      const s = this.dot(query, slot);
      if (s > top.minScore && (candidates || !accept || accept(id))) top.push(id, s);
    };
    if (candidates) for (const c of candidates) visit(c.id);
    else for (let slot = 0; slot < this.slots; slot++) visit(slot);
    return top.sorted();
  }

  private dot(q: Float32Array, slot: number): number {
    const d = this.data;
    let s = 0;
    for (let i = 0, o = slot * this.dimensions; i < this.dimensions; i++) s += q[i]! * d[o + i]!;
    return s;
  }

  /** Slots whose centred sign bits are closest in Hamming distance to the query's. */
  private prefilter(query: Float32Array, n: number, accept?: (id: number) => boolean): Scored[] {
    const q = this.code(query);
    const top = new TopK(n);
    for (let slot = 0; slot < this.slots; slot++) {
      if (!this.alive[slot]) continue;
      let dist = 0;
      for (let w = 0; w < this.words; w++) dist += popcount((q[w]! ^ this.codes[slot * this.words + w]!) >>> 0);
      const score = -dist;
      if (score > top.minScore && (!accept || accept(this.ids[slot]!))) top.push(slot, score);
    }
    return top.sorted();
  }

  private freezeMean(): void {
    const mean = new Float32Array(this.dimensions);
    for (let slot = 0; slot < this.slots; slot++)
      for (let i = 0; i < this.dimensions; i++) mean[i]! += this.data[slot * this.dimensions + i]! / this.slots;
    this.mean = mean;
    for (let slot = 0; slot < this.slots; slot++) this.encode(slot);
  }

  private encode(slot: number): void {
    this.codes.set(this.code(this.data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions)), slot * this.words);
  }

  private code(v: Float32Array): Uint32Array {
    const out = new Uint32Array(this.words);
    for (let i = 0; i < this.dimensions; i++) if (v[i]! > (this.mean?.[i] ?? 0)) out[i >> 5]! |= 1 << (i & 31);
    return out;
  }

  private ensure(n: number): void {
    if (n <= this.ids.length) return;
    const size = Math.max(n, this.ids.length * 2);
    const ids = new Int32Array(size);
    ids.set(this.ids);
    this.ids = ids;
    const alive = new Uint8Array(size);
    alive.set(this.alive);
    this.alive = alive;
    const data = new Float32Array(size * this.dimensions);
    data.set(this.data);
    this.data = data;
    const codes = new Uint32Array(size * this.words);
    codes.set(this.codes);
    this.codes = codes;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
