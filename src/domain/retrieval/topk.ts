// Bounded top-k selection with a binary min-heap: O(n log k) without sorting every candidate.

export interface Scored {
  id: number;
  score: number;
}

export class TopK {
  private readonly heap: Scored[] = [];
  constructor(private readonly k: number) {}

  get minScore(): number {
    return this.heap.length < this.k ? -Infinity : (this.heap[0]?.score ?? -Infinity);
  }

  push(id: number, score: number): void {
    if (this.k <= 0) return;
    if (this.heap.length < this.k) {
      this.heap.push({ id, score });
      this.up(this.heap.length - 1);
    } else if (score > this.minScore) {
      this.heap[0] = { id, score };
      this.down(0);
    }
  }

  /** Best first; ties broken by smaller id so results are deterministic. */
  sorted(): Scored[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private less(i: number, j: number): boolean {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    return a.score < b.score || (a.score === b.score && a.id > b.id);
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!;
    this.heap[i] = this.heap[j]!;
    this.heap[j] = t;
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
      if (l < this.heap.length && this.less(l, m)) m = l;
      if (r < this.heap.length && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
