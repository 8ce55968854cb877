// Wraps an Embedder to count the time spent embedding: how much of ingest is the embedder's.
import type { Embedder } from "../../src/ports/embedding.ts";

export class TimedEmbedder implements Embedder {
  ms = 0;
  texts = 0;

  constructor(private readonly inner: Embedder) {}

  get id(): string {
    return this.inner.id;
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  /** Ingest workers rebuild the inner embedder: their time is not counted here (it is off the loop). */
  get portable(): Embedder["portable"] {
    return this.inner.portable;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const t0 = performance.now();
    try {
      return await this.inner.embed(texts);
    } finally {
      this.ms += performance.now() - t0;
      this.texts += texts.length;
    }
  }

  reset(): void {
    this.ms = 0;
    this.texts = 0;
  }
}
