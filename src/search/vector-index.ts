// In-memory nearest-neighbour search over unit vectors (stored as int8 + a scale per vector: a quarter of float32's
// memory, cosine error ~1e-3): exact for small sets, sign-bit prefilter + rerank beyond.
import { hammingDistances } from "../domain/retrieval/popcount.ts";
import { TopK, type Scored } from "../domain/retrieval/topk.ts";
import { ENTRY_BYTES, grow, restoredRoom } from "./bm25.ts";
import { copyArray, materialize, type Sourced } from "./snapshot.ts";

/** Above this many vectors, a Hamming prefilter on sign bits picks candidates for exact cosine. */
const EXACT_LIMIT = 20_000;
const MEAN_SAMPLE = 1_024;

/** Everything a vector index holds, as saved (snapshot.ts), arrays trimmed to the slots in use. */
export interface VectorState {
  dimensions: number;
  slots: number;
  arrays: {
    data: Int8Array;
    scales: Float32Array;
    codes: Uint32Array;
    ids: Int32Array;
    alive: Uint8Array;
    mean: Float32Array | null;
  };
}

export class VectorIndex {
  private data: Int8Array;
  private scales: Float32Array;
  /** Sign bits, `words` per slot; signed so that V8 keeps the XORs in small integers (saved as Uint32, the same bits). */
  private codes: Int32Array;
  private readonly words: number;
  private readonly slotOf = new Map<number, number>();
  private ids: Int32Array;
  private alive: Uint8Array;
  private slots = 0;
  private mean: Float32Array | null = null;

  /** `capacity`: vectors expected, so a bulk load allocates once instead of doubling past it. */
  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    const slots = Math.max(16, capacity);
    this.words = Math.ceil(dimensions / 32);
    this.ids = new Int32Array(slots);
    this.alive = new Uint8Array(slots);
    this.data = new Int8Array(slots * dimensions);
    this.scales = new Float32Array(slots);
    this.codes = new Int32Array(slots * this.words);
  }

  get size(): number {
    return this.slotOf.size;
  }

  state(): VectorState {
    const n = this.slots;
    const d = this.dimensions;
    const arrays = {
      data: this.data.slice(0, n * d),
      scales: this.scales.slice(0, n),
      codes: new Uint32Array(this.codes.slice(0, n * this.words).buffer),
      ids: this.ids.slice(0, n),
      alive: this.alive.slice(0, n),
    };
    return { dimensions: d, slots: n, arrays: { ...arrays, mean: this.mean?.slice() ?? null } };
  }

  /** The index a state() was taken from, exactly, with room to grow (bm25.ts, restoredRoom); copied once, as BM25's. */
  static fromState(s: Omit<VectorState, "arrays"> & { arrays: Sourced<VectorState["arrays"]> }): VectorIndex {
    const index = new VectorIndex(s.dimensions, restoredRoom(s.slots));
    const { data, scales, codes, ids, alive, mean } = s.arrays;
    const sizes = [data.length, scales.length, codes.length, ids.length, alive.length];
    if (sizes.join() !== [s.slots * s.dimensions, s.slots, s.slots * index.words, s.slots, s.slots].join())
      throw new Error("vector state: sizes disagree");
    copyArray(data, index.data);
    copyArray(scales, index.scales);
    copyArray(codes, index.codes); // saved as Uint32Array: the same bits
    copyArray(ids, index.ids);
    copyArray(alive, index.alive);
    index.slots = s.slots;
    index.mean = mean === null ? null : materialize(mean, Float32Array);
    for (let slot = 0; slot < s.slots; slot++) if (index.alive[slot]) index.slotOf.set(index.ids[slot]!, slot);
    return index;
  }

  /** Bytes held, estimated (see Bm25Index.approxBytes). */
  approxBytes(): number {
    const arrays = [this.data, this.scales, this.codes, this.ids, this.alive].reduce((n, a) => n + a.byteLength, 0);
    return arrays + this.slotOf.size * ENTRY_BYTES;
  }

  add(id: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions || this.slotOf.has(id)) return;
    const slot = this.slots++;
    this.ensure(this.slots);
    this.slotOf.set(id, slot);
    this.ids[slot] = id;
    this.alive[slot] = 1;
    this.quantize(vector, slot);
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
    return slot === undefined ? undefined : this.vector(slot);
  }

  /** Cosine similarity of the query with one stored vector, or null when absent. */
  similarity(query: Float32Array, id: number): number | null {
    const slot = this.slotOf.get(id);
    return slot === undefined ? null : this.dot(query, slot);
  }

  search(query: Float32Array, k: number, accept?: (id: number) => boolean): Scored[] {
    const top = new TopK(k);
    const prefiltered = this.mean && this.slotOf.size > EXACT_LIMIT;
    const slots = prefiltered ? this.prefilter(query, Math.max(k * 10, 500), accept) : null;
    const n = slots ? slots.length : this.slots;
    for (let i = 0; i < n; i++) {
      const slot = slots ? slots[i]! : i;
      if (!this.alive[slot]) continue;
      const s = this.dot(query, slot);
      if (s > top.minScore && (slots || !accept || accept(this.ids[slot]!))) top.push(this.ids[slot]!, s);
    }
    return top.sorted();
  }

  /** Unrolled by four: V8 keeps four independent sums in registers, about twice the plain loop's speed. */
  private dot(q: Float32Array, slot: number): number {
    const d = this.data;
    const o = slot * this.dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < this.dimensions; i += 4) {
      s0 += q[i]! * d[o + i]!;
      s1 += q[i + 1]! * d[o + i + 1]!;
      s2 += q[i + 2]! * d[o + i + 2]!;
      s3 += q[i + 3]! * d[o + i + 3]!;
    }
    for (; i < this.dimensions; i++) s0 += q[i]! * d[o + i]!;
    return (s0 + s1 + s2 + s3) * this.scales[slot]!;
  }

  /** About n admitted slots nearest in Hamming distance on centred sign bits: a distance histogram, no sorting. */
  private prefilter(query: Float32Array, n: number, accept?: (id: number) => boolean): Int32Array {
    const q = this.code(query);
    const far = this.dimensions + 1;
    const dist = new Uint16Array(this.slots);
    const histogram = new Uint32Array(far + 1);
    hammingDistances(this.codes, this.words, q, dist);
    for (let slot = 0; slot < this.slots; slot++) {
      if (!this.alive[slot] || (accept && !accept(this.ids[slot]!))) dist[slot] = far;
      histogram[dist[slot]!]!++;
    }
    let cutoff = 0;
    for (let seen = 0; cutoff < far && seen + histogram[cutoff]! < n; cutoff++) seen += histogram[cutoff]!;
    const out: number[] = [];
    for (let slot = 0; slot < this.slots; slot++) if (dist[slot]! <= cutoff && dist[slot]! < far) out.push(slot);
    return Int32Array.from(out);
  }

  private freezeMean(): void {
    const mean = new Float32Array(this.dimensions);
    for (let slot = 0; slot < this.slots; slot++)
      for (let i = 0; i < this.dimensions; i++)
        mean[i]! += (this.data[slot * this.dimensions + i]! * this.scales[slot]!) / this.slots;
    this.mean = mean;
    for (let slot = 0; slot < this.slots; slot++) this.encode(slot);
  }

  private encode(slot: number): void {
    this.codes.set(this.code(this.vector(slot)), slot * this.words);
  }

  private code(v: Float32Array): Int32Array {
    const out = new Int32Array(this.words);
    for (let i = 0; i < this.dimensions; i++) if (v[i]! > (this.mean?.[i] ?? 0)) out[i >> 5]! |= 1 << (i & 31);
    return out;
  }

  /** Symmetric int8 with the vector's own scale: max |component| maps to 127. */
  private quantize(vector: Float32Array, slot: number): void {
    let max = 0;
    for (let i = 0; i < this.dimensions; i++) max = Math.max(max, Math.abs(vector[i]!));
    const scale = max > 0 ? max / 127 : 1;
    this.scales[slot] = scale;
    for (let i = 0, o = slot * this.dimensions; i < this.dimensions; i++)
      this.data[o + i] = Math.round(vector[i]! / scale);
  }

  private vector(slot: number): Float32Array {
    const out = new Float32Array(this.dimensions);
    for (let i = 0, o = slot * this.dimensions; i < this.dimensions; i++)
      out[i] = this.data[o + i]! * this.scales[slot]!;
    return out;
  }

  private ensure(n: number): void {
    if (n <= this.ids.length) return;
    const size = Math.max(n, Math.ceil(this.ids.length * 1.5));
    this.ids = grow(this.ids, new Int32Array(size));
    this.alive = grow(this.alive, new Uint8Array(size));
    this.data = grow(this.data, new Int8Array(size * this.dimensions));
    this.scales = grow(this.scales, new Float32Array(size));
    this.codes = grow(this.codes, new Int32Array(size * this.words));
  }
}
