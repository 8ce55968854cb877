// The loop's embedder inside a worker thread (ingest's analysis, the planners' word vectors).
import type { Embedder, PortableEmbedder } from "../ports/embedding.ts";

/** Rebuilt from its portable form: its tables shared, not copied. */
export async function rebuildEmbedder(spec: PortableEmbedder | null): Promise<Embedder | null> {
  return spec
    ? (
        (await import(spec.module)) as { embedderFromInit(init: unknown): Embedder | Promise<Embedder> }
      ).embedderFromInit(spec.init)
    : null;
}
