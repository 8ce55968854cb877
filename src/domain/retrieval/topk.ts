// Bounded top-k selection with a binary min-heap: O(n log k) without sorting every candidate. The heap lives in two
// typed arrays, so a push allocates nothing (BM25 pushes thousands per query; objects per push were most of its garbage).

export interface Scored {
  id: number;
  score: number;
}

export class TopK {
  /** Ids as float64: exact for any integer id up to 2^53. */
  private readonly ids: Float64Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(readonly k: number) {
    this.ids = new Float64Array(Math.max(0, k));
    this.scores = new Float64Array(Math.max(0, k));
  }

  /** Empties it for reuse (a caller that selects many times keeps one). */
  clear(): void {
    this.size = 0;
  }

  get minScore(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }

  push(id: number, score: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      this.ids[this.size] = id;
      this.scores[this.size] = score;
      this.up(this.size++);
    } else if (score > this.scores[0]!) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.down(0);
    }
  }

  /** Best first; ties broken by smaller id so results are deterministic. */
  sorted(): Scored[] {
    const out: Scored[] = [];
    for (let i = 0; i < this.size; i++) out.push({ id: this.ids[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private less(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a < b || (a === b && this.ids[i]! > this.ids[j]!);
  }

  private swap(i: number, j: number): void {
    const id = this.ids[i]!;
    const score = this.scores[i]!;
    this.ids[i] = this.ids[j]!;
    this.scores[i] = this.scores[j]!;
    this.ids[j] = id;
    this.scores[j] = score;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.less(l, m)) m = l;
      if (r < this.size && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
