// TopK: the k best by score, best first, ties by smaller id.
import { describe, expect, it } from "vitest";
import { TopK } from "../../src/domain/retrieval/topk.ts";
import { prng } from "../helpers/prng.ts";

describe("TopK", () => {
  it("matches a full sort for random inputs", () => {
    const rnd = prng(7);
    for (let round = 0; round < 50; round++) {
      const k = rnd.int(1, 12);
      const items = Array.from({ length: rnd.int(0, 60) }, (_, id) => ({ id, score: rnd.int(0, 20) / 4 }));
      const top = new TopK(k);
      for (const it of items) top.push(it.id, it.score);
      const expected = [...items].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
      expect(top.sorted()).toEqual(expected);
    }
  });

  it("reports -Infinity as the bar until full, then the k-th best score", () => {
    const top = new TopK(2);
    expect(top.minScore).toBe(-Infinity);
    top.push(1, 5);
    expect(top.minScore).toBe(-Infinity);
    top.push(2, 3);
    expect(top.minScore).toBe(3);
    top.push(3, 4);
    expect(top.minScore).toBe(4);
    expect(top.sorted().map((s) => s.id)).toEqual([1, 3]);
  });

  it("keeps nothing when k is 0", () => {
    const top = new TopK(0);
    top.push(1, 1);
    expect(top.sorted()).toEqual([]);
  });
});
