// Typed arrays and a JSON header in one checked byte string: how a workspace's indexes are saved and read back
// (engine.ts). Layout: magic, header length, header JSON (scalars, strings, where each array sits), the arrays 8-byte
// aligned, then a SHA-256 of everything before it, so a torn or corrupt file is refused rather than half read.
import { createHash } from "node:crypto";
import type { ByteSource } from "../ports/index-snapshots.ts";

export const ARRAY_TYPES = { Int8Array, Uint8Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array };
type ArrayType = keyof typeof ARRAY_TYPES;
export type Typed = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

const MAGIC = "SMRIDX01";
const HASH_BYTES = 32;

export interface Packed {
  header: Record<string, unknown>;
  arrays: Record<string, Typed>;
}

interface Placed {
  type: ArrayType;
  offset: number;
  length: number;
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/** The parts to write, in order (their concatenation is the file). */
export function pack({ header, arrays }: Packed): Uint8Array[] {
  const placed: Record<string, Placed> = {};
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    placed[name] = { type: a.constructor.name as ArrayType, offset, length: a.length };
    offset = align(offset + a.byteLength);
  }
  const json = Buffer.from(JSON.stringify({ ...header, arrays: placed }));
  const head = Buffer.alloc(align(12 + json.length));
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(json.length, 8);
  json.copy(head, 12);
  const body = new Uint8Array(offset);
  for (const [name, a] of Object.entries(arrays))
    body.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), placed[name]!.offset);
  const hash = createHash("sha256").update(head).update(body).digest();
  return [head, body, hash];
}

/**
 * One array of a saved file, read where it goes: a restore copies it into the index's own arrays by parts, so it never
 * holds the file whole (at 1M chunks a 655 MB buffer that stayed as garbage until a collection, which an idle process
 * does not run).
 */
export interface Section {
  readonly type: ArrayType;
  readonly length: number;
  /** Copies elements [from, from + count) into `target` from its element `at`, as bytes (same-width types mix). */
  copyTo(target: Typed, at: number, from: number, count: number): void;
}

/** An array as saved or as read back: in memory, or a section of a file. */
export type ArraySource = Typed | Section;

/** A state's arrays as a restore takes them: each in memory or a section of a file. */
export type Sourced<A> = { [K in keyof A]: null extends A[K] ? ArraySource | null : ArraySource };

/** A saved index as a restore takes it (Packed in memory, or Opened from a file). */
export interface Saved {
  header: Record<string, unknown>;
  arrays: Record<string, ArraySource>;
}

/** What openSnapshot gives: the header, and each array as a section of the file. */
export interface Opened {
  header: Record<string, unknown>;
  arrays: Record<string, Section>;
}

/** The hash is checked through a buffer this large; each array's small copies share reads of a quarter of it. */
const WINDOW = 1 << 20;

/** The header and the arrays' sections of a whole, intact file (SHA-256 checked first), or null. */
export function openSnapshot(file: ByteSource): Opened | null {
  const end = file.size - HASH_BYTES;
  if (end < 12) return null;
  const window = Buffer.allocUnsafe(Math.min(WINDOW, end));
  const hash = createHash("sha256");
  for (let at = 0; at < end;) {
    const n = readFully(file, window.subarray(0, Math.min(window.length, end - at)), at);
    if (n === 0) return null; // shorter than it said
    hash.update(window.subarray(0, n));
    at += n;
  }
  const expected = Buffer.alloc(HASH_BYTES);
  if (readFully(file, expected, end) !== HASH_BYTES || !hash.digest().equals(expected)) return null;
  const head = Buffer.alloc(12);
  readFully(file, head, 0);
  const jsonLength = head.readUInt32LE(8);
  if (head.toString("latin1", 0, 8) !== MAGIC || 12 + jsonLength > end) return null;
  const json = Buffer.alloc(jsonLength);
  readFully(file, json, 12);
  const { arrays: placed, ...header } = JSON.parse(json.toString("utf8")) as { arrays: Record<string, Placed> };
  const bodyStart = align(12 + jsonLength);
  const arrays: Record<string, Section> = {};
  for (const [name, { type, offset, length }] of Object.entries(placed)) {
    const width = ARRAY_TYPES[type].BYTES_PER_ELEMENT;
    const start = bodyStart + offset;
    if (start + length * width > end) return null;
    // A reader per array: a restore alternates between arrays (a posting list's slots, then its frequencies).
    const reader = new WindowReader(file, start, start + length * width);
    arrays[name] = {
      type,
      length,
      copyTo: (target, at, from, count) => {
        if (from < 0 || count < 0 || from + count > length || target.BYTES_PER_ELEMENT !== width)
          throw new RangeError(`snapshot: ${name} read out of range`);
        reader.read(new Uint8Array(target.buffer, target.byteOffset + at * width, count * width), start + from * width);
      },
    };
  }
  return { header, arrays };
}

/** Copies `count` elements of `source` from `from` into `target` from `at` (all of it by default). */
export function copyArray(source: ArraySource, target: Typed, at = 0, from = 0, count = source.length - from): void {
  if (isSection(source)) source.copyTo(target, at, from, count);
  else
    new Uint8Array(
      target.buffer,
      target.byteOffset + at * target.BYTES_PER_ELEMENT,
      count * target.BYTES_PER_ELEMENT,
    ).set(
      new Uint8Array(
        source.buffer,
        source.byteOffset + from * source.BYTES_PER_ELEMENT,
        count * source.BYTES_PER_ELEMENT,
      ),
    );
}

/** A new array of `Type` holding all of `source`. */
export function materialize<T extends Typed>(source: ArraySource, Type: new (n: number) => T): T {
  const out = new Type(source.length);
  copyArray(source, out);
  return out;
}

/** Whether `source` holds elements of `Type` (a file's section by the type it was saved as). */
export function isOfType(source: ArraySource | undefined, Type: { name: string }): boolean {
  return (
    source !== undefined && (isSection(source) ? source.type === Type.name : source.constructor.name === Type.name)
  );
}

const isSection = (source: ArraySource): source is Section => !ArrayBuffer.isView(source);

function readFully(file: ByteSource, target: Uint8Array, position: number): number {
  let done = 0;
  while (done < target.length) {
    const n = file.read(target.subarray(done), position + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

/** Reads ranges of one part of a file, [start, end): a large one straight into its target, small ones from a window. */
class WindowReader {
  private window: Buffer | null = null;
  private from = 0;
  private to = 0;

  constructor(
    private readonly file: ByteSource,
    private readonly start: number,
    private readonly end: number,
  ) {}

  read(target: Uint8Array, position: number): void {
    if (target.length > WINDOW / 16) {
      if (readFully(this.file, target, position) !== target.length) throw new RangeError("snapshot: file ended early");
      return;
    }
    if (position < this.from || position + target.length > this.to) {
      this.window ??= Buffer.allocUnsafe(Math.min(WINDOW / 4, this.end - this.start));
      this.from = position;
      this.to =
        position +
        readFully(this.file, this.window.subarray(0, Math.min(this.window.length, this.end - position)), position);
      if (position + target.length > this.to) throw new RangeError("snapshot: file ended early");
    }
    target.set(this.window!.subarray(position - this.from, position - this.from + target.length));
  }
}
