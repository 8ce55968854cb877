// A neural model's query embeddings on a thread of their own: onnxruntime-node runs a session synchronously (its
// promise only defers the call), so on the request loop each query's inference would stall every other request.
import type { Embedder, PortableEmbedder } from "../../ports/embedding.ts";
import { IngestPool } from "./ingest-pool.ts";

/**
 * One thread: queries take one core while the loop keeps the other for HTTP and the store (ingest has its own
 * threads). It starts on the first query and leaves after the pool's idle time, like the ingest threads.
 */
export class ThreadQueryEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly portable: PortableEmbedder;
  private readonly thread: IngestPool;

  constructor(embedder: Embedder, portable: PortableEmbedder) {
    this.id = embedder.id;
    this.dimensions = embedder.dimensions;
    this.portable = portable;
    this.thread = new IngestPool(1, portable);
  }

  /** Threads alive now (0 or 1). */
  get running(): number {
    return this.thread.running;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.thread.embed([...texts]);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
