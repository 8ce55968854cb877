// What retrieval and answering need from an embedding model: vectors for texts, and (GloVe) word neighbours and similarity.

/** Turns texts into unit-length vectors; `id` changes whenever the vectors would. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Set by CPU-bound embedders that a worker thread can rebuild, so ingest embeds off the request loop. */
  readonly portable?: PortableEmbedder | undefined;
  /**
   * Set by an embedder that gives a short text the same vector every time in less than a store look-up costs (GloVe:
   * ~0.065 ms a note): ingest embeds new chunks without first asking which of their vectors are stored.
   */
  readonly cheap?: boolean;
}

/**
 * A worker builds the same embedder with `await (await import(module)).embedderFromInit(init)`; init is structured-cloned.
 * The rebuilt embedder gives the same vectors (GloVe to the bit; an ONNX model to float rounding, as a batch's padding
 * changes the order of its sums): ingest stores a worker's vectors over any already stored.
 */
export interface PortableEmbedder {
  readonly module: string;
  readonly init: unknown;
}

/** Nearest words in a word-embedding space, most similar first (query expansion); the GloVe embedder provides one. */
export interface WordNeighbours {
  neighbours(word: string, n: number): { word: string; similarity: number }[];
}

/** Cosine similarity of two lowercase words' vectors, 0 when either is unknown (answer spans: "what team" ~ a club's name). */
export interface WordSimilarity {
  similarity(a: string, b: string): number;
}
