// Posting lists in shared blocks: lists grown in any interleaving keep exactly their entries, a list that moves leaves
// its slice to the next list of that size, and a long list moves to arrays of its own.
import { describe, expect, it } from "vitest";
import { PostingStore, type Postings } from "../../src/search/postings.ts";
import { prng } from "../helpers/prng.ts";

const entries = (p: Postings) => Array.from({ length: p.length }, (_, i) => [p.docs[p.at + i]!, p.tfs[p.at + i]!]);

describe("PostingStore", () => {
  it("keeps every list's entries exactly while thousands grow interleaved, through every size and past the small ones", () => {
    const rand = prng(3);
    const store = new PostingStore();
    const lists = Array.from({ length: 3_000 }, () => store.create());
    const expected: number[][][] = lists.map(() => []);
    for (let slot = 0; slot < 400; slot++) {
      for (let t = 0; t < lists.length; t++) {
        // Zipf-like: list t takes a document with probability ~1/(t+1), so a few grow long and most stay short.
        if (rand.next() * (t + 1) > 3) continue;
        const tf = 1 + Math.floor(rand.next() * 5);
        store.append(lists[t]!, slot, tf);
        expected[t]!.push([slot, tf]);
      }
    }
    lists.forEach((p, t) => {
      expect(entries(p)).toEqual(expected[t]);
      expect(p.df).toBe(expected[t]!.length);
    });
    expect(lists.some((p) => p.block < 0 && p.length > 48)).toBe(true);
    expect(lists.some((p) => p.block >= 0 && p.length > 1)).toBe(true);
  });

  it("a list that moves leaves its slice to the next: lists grown one after another take far less than their trails", () => {
    const store = new PostingStore();
    const trail = [4, 6, 9, 14, 21, 32, 48].reduce((a, b) => a + b, 0);
    for (let n = 0; n < 2_000; n++) {
      const p = store.create();
      for (let slot = 0; slot < 48; slot++) store.append(p, slot, 1);
    }
    const entryBytes = 6;
    expect(store.bytes()).toBeLessThan((2_000 * trail * entryBytes) / 2);
    expect(store.bytes()).toBeGreaterThanOrEqual(2_000 * 48 * entryBytes);
  });

  it("reserve() gives an empty list its room at once; a list that has room is refused", () => {
    const store = new PostingStore();
    const small = store.create();
    store.reserve(small, 5);
    expect(small.capacity).toBeGreaterThanOrEqual(5);
    expect(small.block).toBeGreaterThanOrEqual(0);
    const long = store.create();
    store.reserve(long, 1_000);
    expect([long.capacity, long.block]).toEqual([1_000, -1]);
    for (let slot = 0; slot < 1_000; slot++) store.append(long, slot, 2);
    expect(long.capacity).toBe(1_000); // filled without moving
    expect(() => store.reserve(long, 10)).toThrow(/room already/);
  });
});

describe("PostingStore's first blocks", () => {
  it("are small: a workspace of a few chunks holds a few kilobytes, not a whole block", () => {
    const store = new PostingStore();
    const p = store.create();
    store.append(p, 0, 1);
    expect(store.bytes()).toBeLessThan(8 * 1024);
  });
});
