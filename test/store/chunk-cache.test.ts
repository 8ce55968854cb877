// The SQLite adapter's hot chunk rows: least recently used out, never handed to another workspace, shared rows frozen.
import { expect, it } from "vitest";
import type { ChunkRecord } from "../../src/ports/documents.ts";
import { ChunkCache } from "../../src/store/chunk-cache.ts";

const chunk = (id: number): ChunkRecord => ({
  id,
  sourcePath: "a.md",
  ord: id,
  chunkHash: `h${id}`,
  anchor: "A",
  start: 0,
  end: 1,
  text: "x",
  authoredAt: 0,
});

it("keeps the most recently used rows up to its capacity", () => {
  const cache = new ChunkCache(2);
  cache.put(1, "ws", chunk(1));
  cache.put(2, "ws", chunk(2));
  expect(cache.get(1, "ws")?.id).toBe(1); // 1 is now the most recent
  cache.put(3, "ws", chunk(3));
  expect(cache.has(2)).toBe(false);
  expect([cache.has(1), cache.has(3)]).toEqual([true, true]);
  cache.delete(1);
  expect(cache.get(1, "ws")).toBeUndefined();
});

it("hands a row only to its own workspace, frozen", () => {
  const cache = new ChunkCache(4);
  cache.put(7, "alpha", chunk(7));
  expect(cache.get(7, "beta")).toBeUndefined();
  const row = cache.get(7, "alpha")!;
  expect(Object.isFrozen(row)).toBe(true);
  expect(() => ((row as { text: string }).text = "changed")).toThrow();
});
