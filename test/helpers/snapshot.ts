// Saved index files in memory, for tests: the product reads them from disk by parts (src/search/snapshot.ts).
import type { ByteSource } from "../../src/ports/index-snapshots.ts";
import { ARRAY_TYPES, materialize, openSnapshot, type Packed, type Typed } from "../../src/search/snapshot.ts";

/** Bytes in memory as a ByteSource. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (target, position) => {
      const part = bytes.subarray(position, position + target.length);
      target.set(part);
      return part.length;
    },
  };
}

/** The header and arrays of a whole, intact file in memory (each array a copy), or null. */
export function unpack(bytes: Uint8Array): Packed | null {
  const opened = openSnapshot(bytesSource(bytes));
  if (!opened) return null;
  const arrays: Record<string, Typed> = {};
  for (const [name, section] of Object.entries(opened.arrays))
    arrays[name] = materialize(section, ARRAY_TYPES[section.type] as new (n: number) => Typed);
  return { header: opened.header, arrays };
}
