// GloVe's word table: the typed-array hash table answers exactly as a Map of the same words, and survives a thread hop.
import { describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { WordList } from "../../src/embed/word-list.ts";
import { prng } from "../helpers/prng.ts";

describe("WordList", () => {
  const rnd = prng(5);
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const words = Array.from({ length: 5000 }, () =>
    Array.from({ length: rnd.int(1, 12) }, () => alphabet[rnd.int(0, alphabet.length - 1)]!).join(""),
  );
  words.push("café", "naïve", "東京", "z");

  it("finds every word's row as a Map filled in row order does (a word listed twice: its last row), -1 for others", () => {
    const list = WordList.fromWords(words);
    const map = new Map(words.map((w, i) => [w, i]));
    expect(list.length).toBe(words.length);
    for (const w of words) expect(list.rowOf(w)).toBe(map.get(w));
    for (const w of ["", "zz9zz9zz9", "caf", "cafe", "東", "東京都", words[3]! + "x"])
      expect(list.rowOf(w)).toBe(map.get(w) ?? -1);
    expect(list.toArray()).toEqual(words);
    expect(list.at(words.length - 2)).toBe("東京");
  });

  it("reads the cache file's section of words joined by a newline, and refuses a count it does not hold", () => {
    const bytes = new TextEncoder().encode("the\ncat\nkitten");
    expect(WordList.fromBytes(bytes, 3)!.toArray()).toEqual(["the", "cat", "kitten"]);
    expect(WordList.fromBytes(bytes, 3)!.rowOf("kitten")).toBe(2);
    expect(WordList.fromBytes(bytes, 2)).toBeNull();
    expect(WordList.fromBytes(bytes, 4)).toBeNull();
    expect(WordList.fromBytes(new Uint8Array(0), 0)!.rowOf("the")).toBe(-1);
  });

  it("is rebuilt in a worker thread from what the thread receives, over the same shared memory", async () => {
    const list = WordList.fromWords(words);
    const code = `
      const { parentPort, workerData } = require("node:worker_threads");
      parentPort.postMessage({ shared: workerData.slots.buffer instanceof SharedArrayBuffer && workerData.bytes.buffer instanceof SharedArrayBuffer });`;
    const worker = new Worker(code, { eval: true, workerData: list });
    const reply = await new Promise<{ shared: boolean }>((resolve, reject) =>
      worker.once("message", resolve).once("error", reject),
    );
    await worker.terminate();
    expect(reply.shared).toBe(true);
    const revived = WordList.of(structuredClone(list) as never);
    for (const w of words.slice(0, 500)) expect(revived.rowOf(w)).toBe(list.rowOf(w));
  });
});
