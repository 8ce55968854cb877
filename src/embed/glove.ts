// Offline default embedder: SIF-weighted sum of int8-quantised GloVe 6B 100-d word vectors.
//
// Sentence vector = normalize( sum over known tokens of a/(a + p(w)) * v(w) ) (Arora et al. 2017;
// weights and the frequency estimate are documented in sif.ts, tokenisation in tokenize.ts).
// Unknown tokens are skipped; a text without known tokens embeds to the all-zero vector.
//
// The paper's second step, removing the first principal component, is deliberately skipped: that
// component is computed over the set of sentences being embedded, so a text's vector would depend
// on its batch (or on a fixed reference corpus we do not have), which breaks the determinism that
// stored vectors rely on. Bump GLOVE_EMBEDDER_ID whenever this file, sif.ts, tokenize.ts or the
// cache conversion change the output vectors (stored vectors are keyed by it).
import { stat } from "node:fs/promises";
import type { Embedder, PortableEmbedder, WordNeighbours, WordSimilarity } from "../ports/embedding.ts";
import { GloveNeighbours } from "./glove-neighbours.ts";
import { openGloveCache, type GloveCacheOptions } from "./glove-cache.ts";
import type { GloveTable } from "./glove-format.ts";
import { WordList, type WordListData } from "./word-list.ts";
import { sifWeights } from "./sif.ts";
import { tokenize } from "./tokenize.ts";

export { defaultCacheDir } from "./glove-cache.ts";

export const GLOVE_EMBEDDER_ID = "glove-sif-100d@1";
export const GLOVE_DIMENSIONS = 100;
const YIELD_EVERY = 1024;

export type GloveEmbedderOptions = Pick<GloveCacheOptions, "cacheDir" | "onBuild">;

export interface GloveCacheInfo {
  readonly path: string;
  /** True if the cache was (re)built by this call. */
  readonly built: boolean;
  readonly bytes: number;
  readonly words: number;
  /** Why a previous cache file was discarded, if one was. */
  readonly rejected?: string;
}

/** Makes sure a valid cache exists (building it from the installed package if needed). */
export async function ensureGloveCache(opts: GloveEmbedderOptions = {}): Promise<GloveCacheInfo> {
  const opened = await openGloveCache(opts);
  const { size } = await stat(opened.path);
  const info = { path: opened.path, built: opened.built, bytes: size, words: opened.table.words.length };
  return opened.rejected === undefined ? info : { ...info, rejected: opened.rejected };
}

/** Loads (building once if needed) the GloVe cache and returns the SIF sentence embedder. */
export async function loadGloveEmbedder(opts: GloveEmbedderOptions = {}): Promise<Embedder> {
  const { table } = await openGloveCache(opts);
  return new GloveSifEmbedder(table);
}

/** How an ingest worker thread rebuilds the embedder (see PortableEmbedder); the cache's arrays are shared, not copied. */
export function embedderFromInit(table: Omit<GloveTable, "words"> & { words: WordListData }): Embedder {
  return new GloveSifEmbedder({ ...table, words: WordList.of(table.words) });
}

class GloveSifEmbedder implements Embedder, WordNeighbours, WordSimilarity {
  readonly id = GLOVE_EMBEDDER_ID;
  readonly dimensions: number;
  readonly portable: PortableEmbedder;
  readonly cheap = true;
  private readonly words: WordList;
  /** Per word: SIF weight × int8 dequantisation scale, so one multiply per token. */
  private readonly weights: Float32Array;
  private readonly vectors: Int8Array;
  private readonly acc: Float64Array;
  private nearest: GloveNeighbours | null = null;

  constructor(private readonly table: GloveTable) {
    if (table.dimensions !== GLOVE_DIMENSIONS) {
      throw new Error(`GloVe cache has ${table.dimensions} dimensions, expected ${GLOVE_DIMENSIONS}`);
    }
    this.dimensions = table.dimensions;
    this.portable = { module: import.meta.url, init: table };
    this.vectors = table.vectors;
    this.words = table.words;
    this.acc = new Float64Array(table.dimensions);
    this.weights = sifWeights(table.ranks, table.vocabSize);
    for (let i = 0; i < table.words.length; i++) this.weights[i]! *= table.scales[i]!;
  }

  /** Nearest words for query expansion (the neighbour index is built on first use, ~0.1 s). */
  neighbours(word: string, n: number): { word: string; similarity: number }[] {
    this.nearest ??= new GloveNeighbours(this.table);
    return this.nearest.neighbours(word, n);
  }

  /** Cosine of the two words' int8 vectors (the per-word scale cancels out); 0 when either word is unknown. */
  similarity(a: string, b: string): number {
    const i = this.words.rowOf(a);
    const j = this.words.rowOf(b);
    if (i < 0 || j < 0) return 0;
    if (i === j) return 1;
    const { vectors, dimensions: dims } = this;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = 0, x = i * dims, y = j * dims; d < dims; d++, x++, y++) {
      dot += vectors[x]! * vectors[y]!;
      na += vectors[x]! * vectors[x]!;
      nb += vectors[y]! * vectors[y]!;
    }
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      out.push(this.embedOne(texts[i]!));
      // Keep the event loop responsive during very large batches.
      if ((i + 1) % YIELD_EVERY === 0 && i + 1 < texts.length) await new Promise(setImmediate);
    }
    return out;
  }

  private embedOne(text: string): Float32Array {
    const dims = this.dimensions;
    const acc = this.acc.fill(0);
    const { words, weights, vectors } = this;
    let found = false;
    for (const token of tokenize(text)) {
      const row = words.rowOf(token);
      if (row < 0) continue;
      found = true;
      const w = weights[row]!;
      // Unrolled by 4 (dims is a multiple of 4): about twice as fast as the plain loop in V8.
      for (let d = 0, b = row * dims; d < dims; d += 4, b += 4) {
        acc[d]! += w * vectors[b]!;
        acc[d + 1]! += w * vectors[b + 1]!;
        acc[d + 2]! += w * vectors[b + 2]!;
        acc[d + 3]! += w * vectors[b + 3]!;
      }
    }
    const out = new Float32Array(dims);
    if (!found) return out;
    let sq = 0;
    for (let d = 0; d < dims; d++) sq += acc[d]! * acc[d]!;
    if (sq === 0) return out;
    const inv = 1 / Math.sqrt(sq);
    for (let d = 0; d < dims; d++) out[d] = acc[d]! * inv;
    return out;
  }
}
