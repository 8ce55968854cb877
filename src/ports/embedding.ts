// What retrieval and answering need from an embedding model: vectors for texts, and (GloVe) word neighbours and similarity.

/** Turns texts into unit-length vectors; `id` changes whenever the vectors would. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Nearest words in a word-embedding space, most similar first (query expansion); the GloVe embedder provides one. */
export interface WordNeighbours {
  neighbours(word: string, n: number): { word: string; similarity: number }[];
}

/** Cosine similarity of two lowercase words' vectors, 0 when either is unknown (answer spans: "what team" ~ a club's name). */
export interface WordSimilarity {
  similarity(a: string, b: string): number;
}
