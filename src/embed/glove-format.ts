// Binary layout of the compact GloVe cache: int8 vectors + per-vector scale + ranks + word list, and the precomputed
// nearest words of the most frequent ones (manas' query expansion).
//
// Little-endian (typed-array sections are native order, so big-endian hosts are rejected). Header:
//   0  magic "SMRGLOVE"       8  u32 format version   12 u32 dimensions   16 u32 word count
//   20 u32 original vocab size 24 u32 word-list bytes  28 u32 reserved (0)
//   32 f64 source file size    40 f64 payload bytes    48 32 bytes SHA-256 of the payload
//   80 u32 neighbour heads (n) 84 u32 neighbours per head (k)  88 u32 candidate vocabulary  92 u32 shortlist
// Payload (every section padded to 4 bytes): u32 ranks[count] | f32 scales[count] |
//   i8 vectors[count * dimensions] (component = q * scale) | i32 heads[n] | i32 neighbour rows[n * k] (-1 = none) |
//   i16 cosines x 10^4 [n * k] | UTF-8 words joined by "\n".
import { createHash } from "node:crypto";
import { endianness } from "node:os";
import { WordList } from "./word-list.ts";

export const CACHE_MAGIC = "SMRGLOVE";
export const CACHE_FORMAT_VERSION = 2;
export const HEADER_BYTES = 96;

/** Decoded cache contents; typed arrays are views into (an aligned copy of) the file bytes. */
export interface GloveTable {
  readonly dimensions: number;
  /** Size of the original frequency-ordered vocabulary that `ranks` index into. */
  readonly vocabSize: number;
  /** Size in bytes of the source JSON the cache was built from (staleness check). */
  readonly sourceSize: number;
  /** The words, row by row (rows index every array below). */
  readonly words: WordList;
  /** 0-based corpus-frequency rank of each word. */
  readonly ranks: Uint32Array;
  /** Per-word dequantisation scale: component = vectors[i * dimensions + d] * scales[i]. */
  readonly scales: Float32Array;
  readonly vectors: Int8Array;
  /** Precomputed nearest words (null: none, every look-up searches). */
  readonly neighbours: NeighbourTable | null;
}

/** The k nearest candidate words of the n most frequent ones, as GloveNeighbours' search finds them. */
export interface NeighbourTable {
  /** The candidate vocabulary and shortlist it was searched with: a table built with others is not used. */
  readonly vocabulary: number;
  readonly shortlist: number;
  readonly k: number;
  /** Rows (into words) of the words that have an entry. */
  readonly heads: Int32Array;
  /** Per head, k neighbour rows best first (-1 when fewer exist) and their cosines x 10^4 (rounded to 4 decimals). */
  readonly rows: Int32Array;
  readonly cosines: Int16Array;
}

export type DecodeResult = { ok: true; table: GloveTable } | { ok: false; reason: string };

function sha256(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** Serialises a table into header + payload buffers (write them back to back). */
export function encodeGloveTable(t: GloveTable): Buffer[] {
  const count = t.words.length;
  const words = Buffer.from(t.words.bytes.buffer, t.words.bytes.byteOffset, t.words.bytes.byteLength);
  const ranks = Buffer.from(t.ranks.buffer, t.ranks.byteOffset, count * 4);
  const scales = Buffer.from(t.scales.buffer, t.scales.byteOffset, count * 4);
  const vectors = Buffer.from(t.vectors.buffer, t.vectors.byteOffset, count * t.dimensions);
  const nb = t.neighbours;
  const section = (a: Int32Array | Int16Array | undefined) =>
    a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : Buffer.alloc(0);
  const payload = [
    ranks,
    scales,
    padded(vectors),
    section(nb?.heads),
    section(nb?.rows),
    padded(section(nb?.cosines)),
    words,
  ];
  const hash = createHash("sha256");
  for (const part of payload) hash.update(part);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(CACHE_MAGIC, 0, "latin1");
  header.writeUInt32LE(CACHE_FORMAT_VERSION, 8);
  header.writeUInt32LE(t.dimensions, 12);
  header.writeUInt32LE(count, 16);
  header.writeUInt32LE(t.vocabSize, 20);
  header.writeUInt32LE(words.length, 24);
  header.writeDoubleLE(t.sourceSize, 32);
  header.writeDoubleLE(
    payload.reduce((n, p) => n + p.length, 0),
    40,
  );
  hash.digest().copy(header, 48);
  header.writeUInt32LE(nb?.heads.length ?? 0, 80);
  header.writeUInt32LE(nb?.k ?? 0, 84);
  header.writeUInt32LE(nb?.vocabulary ?? 0, 88);
  header.writeUInt32LE(nb?.shortlist ?? 0, 92);
  return [header, ...payload];
}

/** Validates magic, version, sizes and checksum, then returns views over `file`. */
export function decodeGloveTable(file: Buffer): DecodeResult {
  if (endianness() !== "LE") return { ok: false, reason: "big-endian hosts are not supported" };
  if (file.length < HEADER_BYTES) return { ok: false, reason: `file too short (${file.length} bytes)` };
  if (file.toString("latin1", 0, 8) !== CACHE_MAGIC) return { ok: false, reason: "bad magic" };
  const version = file.readUInt32LE(8);
  if (version !== CACHE_FORMAT_VERSION) {
    return { ok: false, reason: `format version ${version}, expected ${CACHE_FORMAT_VERSION}` };
  }
  const dimensions = file.readUInt32LE(12);
  const count = file.readUInt32LE(16);
  const vocabSize = file.readUInt32LE(20);
  const wordBytes = file.readUInt32LE(24);
  const sourceSize = file.readDoubleLE(32);
  const payloadBytes = file.readDoubleLE(40);
  const heads = file.readUInt32LE(80);
  const k = file.readUInt32LE(84);
  const vectorBytes = align4(count * dimensions);
  const neighbourBytes = heads * (4 + 4 * k) + align4(heads * k * 2);
  const expected = count * 8 + vectorBytes + neighbourBytes + wordBytes;
  if (payloadBytes !== expected) return { ok: false, reason: "inconsistent header sizes" };
  if (file.length !== HEADER_BYTES + payloadBytes) {
    return { ok: false, reason: `size ${file.length} bytes, header says ${HEADER_BYTES + payloadBytes}` };
  }
  // Views need 4-byte alignment; Buffers from readFile normally are, otherwise copy once.
  const bytes = file.byteOffset % 4 === 0 ? file : Buffer.from(file);
  const payload = bytes.subarray(HEADER_BYTES);
  if (!sha256(payload).equals(bytes.subarray(48, 80))) return { ok: false, reason: "checksum mismatch" };
  const base = bytes.byteOffset + HEADER_BYTES;
  const ranks = new Uint32Array(bytes.buffer, base, count);
  const scales = new Float32Array(bytes.buffer, base + count * 4, count);
  const vectors = new Int8Array(bytes.buffer, base + count * 8, count * dimensions);
  const nbBase = base + count * 8 + vectorBytes;
  const neighbours =
    heads === 0
      ? null
      : {
          vocabulary: file.readUInt32LE(88),
          shortlist: file.readUInt32LE(92),
          k,
          heads: new Int32Array(bytes.buffer, nbBase, heads),
          rows: new Int32Array(bytes.buffer, nbBase + heads * 4, heads * k),
          cosines: new Int16Array(bytes.buffer, nbBase + heads * 4 * (1 + k), heads * k),
        };
  const words = WordList.fromBytes(payload.subarray(count * 8 + vectorBytes + neighbourBytes), count);
  if (words === null) return { ok: false, reason: `word list does not hold ${count} words` };
  return { ok: true, table: { dimensions, vocabSize, sourceSize, words, ranks, scales, vectors, neighbours } };
}

const align4 = (n: number) => Math.ceil(n / 4) * 4;

/** The bytes followed by zeros up to a multiple of 4, so that the next typed-array section is aligned. */
function padded(b: Buffer): Buffer {
  return b.length % 4 === 0 ? b : Buffer.concat([b, Buffer.alloc(align4(b.length) - b.length)]);
}
