// Saved indexes read by parts: a restore copies each array from the file into its own arrays, through reads of the
// sizes the file gives, and refuses a file that is not whole.
import { describe, expect, it } from "vitest";
import { copyArray, openSnapshot, pack, type Section } from "../../src/search/snapshot.ts";
import { bytesSource, unpack } from "../helpers/snapshot.ts";
import { prng } from "../helpers/prng.ts";

const rand = prng(21);
const arrays = {
  big: Int32Array.from({ length: 70_000 }, () => rand.int(-1e9, 1e9)),
  small: Uint16Array.from({ length: 3_000 }, () => rand.int(0, 65_535)),
  bytes: Int8Array.from({ length: 1_001 }, () => rand.int(-128, 127)),
  codes: Uint32Array.from({ length: 10 }, () => rand.int(0, 2 ** 32 - 1)),
};
const file = Buffer.concat(pack({ header: { x: 1, terms: ["a", "b"] }, arrays }));

/** The file's bytes, handed out at most `most` at a time, as a file may. */
const stingy = (bytes: Uint8Array, most: number) => {
  const source = bytesSource(bytes);
  return {
    size: source.size,
    read: (target: Uint8Array, position: number) => source.read(target.subarray(0, most), position),
  };
};

describe("openSnapshot", () => {
  it("gives the header and sections that copy exactly what was saved, whole or by parts, however the reads come", () => {
    for (const source of [bytesSource(file), stingy(file, 4_093)]) {
      const opened = openSnapshot(source)!;
      expect(opened.header).toEqual({ x: 1, terms: ["a", "b"] });
      const big = new Int32Array(80_000); // more than a quarter of the window: read straight into it
      copyArray(opened.arrays["big"]!, big, 7);
      expect(big.subarray(7, 70_007)).toEqual(arrays.big);
      // Small copies in order, as a restore makes them for posting lists: each from the window.
      const small = new Uint16Array(3_000);
      for (let at = 0; at < 3_000; at += 37)
        copyArray(opened.arrays["small"]!, small, at, at, Math.min(37, 3_000 - at));
      expect(small).toEqual(arrays.small);
      // A section of another type of the same width reads the same bits (vector codes).
      const codes = new Int32Array(10);
      copyArray(opened.arrays["codes"]!, codes);
      expect(new Uint32Array(codes.buffer)).toEqual(arrays.codes);
    }
  });

  it("refuses a file that is cut short or changed, and a copy out of its array's range", () => {
    expect(openSnapshot(bytesSource(file.subarray(0, file.length - 1)))).toBeNull();
    expect(openSnapshot(bytesSource(file.subarray(0, 20)))).toBeNull();
    const changed = Buffer.from(file);
    changed[changed.length - 100]! ^= 1;
    expect(openSnapshot(bytesSource(changed))).toBeNull();
    const section = openSnapshot(bytesSource(file))!.arrays["bytes"] as Section;
    expect(() => section.copyTo(new Int8Array(2_000), 0, 1_000, 2)).toThrow(/out of range/);
    expect(() => section.copyTo(new Int32Array(2_000), 0, 0, 10)).toThrow(/out of range/);
  });

  it("unpack reads a file in memory into arrays of the saved types", () => {
    expect(unpack(file)).toEqual({ header: { x: 1, terms: ["a", "b"] }, arrays });
  });
});

describe("openSnapshot on a file that shrinks under it", () => {
  it("returns null rather than reading forever", () => {
    const source = bytesSource(file);
    const shrunk = {
      size: source.size,
      read: (target: Uint8Array, position: number) =>
        position < 1_000 ? source.read(target.subarray(0, 1_000 - position), position) : 0,
    };
    expect(openSnapshot(shrunk)).toBeNull();
  });
});
