// Typed arrays and a JSON header in one checked byte string: how a workspace's indexes are saved and read back
// (engine.ts). Layout: magic, header length, header JSON (scalars, strings, where each array sits), the arrays 8-byte
// aligned, then a SHA-256 of everything before it, so a torn or corrupt file is refused rather than half read.
import { createHash } from "node:crypto";

const ARRAY_TYPES = { Int8Array, Uint8Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array };
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
  for (const [name, a] of Object.entries(arrays)) body.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), placed[name]!.offset);
  const hash = createHash("sha256").update(head).update(body).digest();
  return [head, body, hash];
}

/** The header and arrays (views over `bytes` where aligned), or null when the bytes are not a whole, intact file. */
export function unpack(bytes: Uint8Array): Packed | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 + HASH_BYTES || buf.toString("latin1", 0, 8) !== MAGIC) return null;
  const end = buf.length - HASH_BYTES;
  if (!createHash("sha256").update(buf.subarray(0, end)).digest().equals(buf.subarray(end))) return null;
  const jsonLength = buf.readUInt32LE(8);
  const { arrays: placed, ...header } = JSON.parse(buf.toString("utf8", 12, 12 + jsonLength)) as { arrays: Record<string, Placed> };
  const bodyStart = align(12 + jsonLength);
  const arrays: Record<string, Typed> = {};
  for (const [name, p] of Object.entries(placed)) {
    const Type = ARRAY_TYPES[p.type];
    const start = bodyStart + p.offset;
    const bytesOf = p.length * Type.BYTES_PER_ELEMENT;
    if (start + bytesOf > end) return null;
    // A view where the bytes sit aligned for the type (a file read whole is), else a copy that is.
    const at = buf.byteOffset + start;
    if (at % Type.BYTES_PER_ELEMENT === 0) arrays[name] = new Type(buf.buffer as ArrayBuffer, at, p.length);
    else {
      const copy = new Uint8Array(bytesOf);
      copy.set(buf.subarray(start, start + bytesOf));
      arrays[name] = new Type(copy.buffer);
    }
  }
  return { header, arrays };
}
