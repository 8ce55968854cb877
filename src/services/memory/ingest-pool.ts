// Ingest's CPU work (chunk, tokenize, embed) on worker threads, so the request loop keeps only the store's write. A
// worker costs ~70 MB with GloVe's word index while it lives (src/threads/pool.ts: on demand, gone when idle).
import type { DocumentKind } from "../../domain/text/chunk.ts";
import type { ChunkInput } from "../../ports/documents.ts";
import type { PortableEmbedder } from "../../ports/embedding.ts";
import { ThreadPool, threadModule } from "../../threads/pool.ts";

/** A document to analyse, or (the re-embed job) texts to embed. */
export type AnalyseRequest = { content: string; kind: DocumentKind } | { texts: string[] };

export interface Analysis {
  chunks: ChunkInput[];
  /** One vector per chunk, when the pool embeds (a portable embedder); null otherwise. */
  vectors: Float32Array[] | null;
}

export class IngestPool {
  private readonly threads: ThreadPool<AnalyseRequest, Analysis>;

  constructor(
    size: number,
    private readonly embedder: PortableEmbedder | null,
    idleMs?: number,
  ) {
    this.threads = new ThreadPool(threadModule("ingest-thread", import.meta.url), embedder, size, idleMs);
  }

  /** Workers alive now. */
  get running(): number {
    return this.threads.running;
  }

  /** True when the workers embed too, so the analysis carries the vectors. */
  get embeds(): boolean {
    return this.embedder !== null;
  }

  analyse(content: string, kind: DocumentKind): Promise<Analysis> {
    return this.threads.run({ content, kind });
  }

  /** Vectors for `texts` from the workers' embedder (only when `embeds`). */
  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.threads.run({ texts })).vectors!;
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
