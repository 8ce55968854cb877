// The streaming converter on a small synthetic file in the wink format (fast; the real file is in glove.test.ts).
import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_FILE_NAME, defaultCacheDir, openGloveCache } from "../../src/embed/glove-cache.ts";
import { readWinkEmbeddings } from "../../src/embed/wink-source.ts";

const WORDS = ["the", ",", "cat", "well-known", "naïve", "kitten"];
const VECTORS: number[][] = [
  [0.5, -0.25, 1, 0],
  [1, 1, 1, 1],
  [-0.038194, 0.72812, -7.0514e-7, 4.0666],
  [0.1, 0.2, 0.3, 0.4],
  [0.3, 0.3, 0.3, 0.3],
  [0, 0, 0, 0],
];

function winkJson(): string {
  const vectors: Record<string, number[]> = {};
  WORDS.forEach((w, i) => {
    const v = VECTORS[i]!;
    vectors[w] = [...v, Math.hypot(...v), i];
  });
  return JSON.stringify({
    precision: 8,
    l2NormIndex: 4,
    wordIndex: 5,
    size: WORDS.length,
    dimensions: 4,
    words: WORDS,
    vectors,
    unkVector: [0, 0, 0, 0, 0, -1],
  });
}

let dir: string;
let source: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "smriti-wink-"));
  source = join(dir, "wink.json");
  await writeFile(source, winkJson());
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readWinkEmbeddings", () => {
  it("streams every vector with its frequency rank", async () => {
    const seen: [string, number, number[]][] = [];
    const header = await readWinkEmbeddings(source, (w, r, v) => seen.push([w, r, Array.from(v)]));
    expect(header).toEqual({ dimensions: 4, size: 6 });
    expect(seen.map(([w, r]) => [w, r])).toEqual(WORDS.map((w, i) => [w, i]));
    seen.forEach(([, r, v]) => expect(v).toEqual(VECTORS[r]));
  });

  it("fails clearly when the file is cut short", async () => {
    const cut = join(dir, "cut.json");
    await writeFile(cut, winkJson().slice(0, -40));
    await expect(readWinkEmbeddings(cut, () => undefined)).rejects.toThrow(/expected 6 vectors|inside a string/);
  });
});

describe("openGloveCache on a wink-format source", () => {
  it("keeps only tokenizable words, preserves ranks and quantises to within half a step", async () => {
    const cacheDir = join(dir, "cache1");
    const { table, built } = await openGloveCache({ cacheDir, sourcePath: source });
    expect(built).toBe(true);
    expect(table.words.toArray()).toEqual(["the", "cat", "kitten"]);
    expect(Array.from(table.ranks)).toEqual([0, 2, 5]);
    expect(table.vocabSize).toBe(6);
    table.words.toArray().forEach((_, i) => {
      const original = VECTORS[table.ranks[i]!]!;
      const step = table.scales[i]!;
      original.forEach((x, d) => {
        expect(Math.abs(table.vectors[i * 4 + d]! * step - x)).toBeLessThanOrEqual(step / 2 + 1e-7);
      });
    });
    expect(Array.from(table.vectors.subarray(8, 12))).toEqual([0, 0, 0, 0]); // all-zero vector stays zero
  });

  it("reuses a valid cache, and rebuilds when the source changes size", async () => {
    const cacheDir = join(dir, "cache2");
    const told: string[] = [];
    const onBuild = (path: string, why: string) => told.push(`${path}: ${why}`);
    expect((await openGloveCache({ cacheDir, sourcePath: source, onBuild })).built).toBe(true);
    expect((await openGloveCache({ cacheDir, sourcePath: source, onBuild })).built).toBe(false);
    expect(told).toEqual([`${join(cacheDir, CACHE_FILE_NAME)}: missing`]); // a first start says why it waits; a reuse says nothing
    const changed = join(dir, "changed.json");
    await writeFile(changed, winkJson());
    await appendFile(changed, "\n");
    const again = await openGloveCache({ cacheDir, sourcePath: changed });
    expect(again.built).toBe(true);
    expect(again.rejected).toMatch(/source/);
    expect(await readdir(cacheDir)).toEqual([CACHE_FILE_NAME]); // no temp files left behind
  });

  it("detects a truncated cache file and rebuilds it, ignoring leftover temp files", async () => {
    const cacheDir = join(dir, "cache-trunc");
    const first = await openGloveCache({ cacheDir, sourcePath: source });
    const path = join(cacheDir, CACHE_FILE_NAME);
    const good = await readFile(path);
    await truncate(path, good.length - 7);
    await writeFile(`${path}.tmp-1-deadbeef`, "leftover of a crashed conversion");
    const again = await openGloveCache({ cacheDir, sourcePath: source });
    expect(again.built).toBe(true);
    expect(again.rejected).toMatch(/size/);
    expect((await readFile(path)).equals(good)).toBe(true);
    expect(again.table.words.toArray()).toEqual(first.table.words.toArray());
    expect((await openGloveCache({ cacheDir, sourcePath: source })).built).toBe(false);
  });

  it("concurrent opens in one process convert only once", async () => {
    const cacheDir = join(dir, "cache3");
    const results = await Promise.all([1, 2, 3].map(() => openGloveCache({ cacheDir, sourcePath: source })));
    expect(results.filter((r) => r.built)).toHaveLength(3); // they share the single build...
    expect(new Set(results.map((r) => r.table)).size).toBe(1); // ...and its result
  });

  it("refuses to download: a missing source with no cache is a clear error", async () => {
    const cacheDir = join(dir, "cache4");
    await expect(openGloveCache({ cacheDir, sourcePath: join(dir, "absent.json") })).rejects.toThrow(
      /not installed.*nothing is downloaded/,
    );
  });

  it("a valid cache still works when the source has been removed", async () => {
    const cacheDir = join(dir, "cache5");
    await openGloveCache({ cacheDir, sourcePath: source });
    const reopened = await openGloveCache({ cacheDir, sourcePath: join(dir, "absent.json") });
    expect(reopened.built).toBe(false);
    expect(reopened.table.words.toArray()).toEqual(["the", "cat", "kitten"]);
  });
});

describe("cache location", () => {
  it("defaults to node_modules/.cache/smriti unless SMRITI_CACHE_DIR is set", () => {
    const saved = process.env["SMRITI_CACHE_DIR"];
    try {
      delete process.env["SMRITI_CACHE_DIR"];
      expect(defaultCacheDir()).toMatch(/node_modules[\\/]\.cache[\\/]smriti$/);
      process.env["SMRITI_CACHE_DIR"] = "";
      expect(defaultCacheDir()).toMatch(/node_modules[\\/]\.cache[\\/]smriti$/);
      process.env["SMRITI_CACHE_DIR"] = "/somewhere/else";
      expect(defaultCacheDir()).toBe("/somewhere/else");
    } finally {
      if (saved === undefined) delete process.env["SMRITI_CACHE_DIR"];
      else process.env["SMRITI_CACHE_DIR"] = saved;
    }
  });

  it("an unwritable cache directory is a clear error", async () => {
    const notADir = join(dir, "plain-file");
    await writeFile(notADir, "x");
    await expect(openGloveCache({ cacheDir: notADir, sourcePath: source })).rejects.toThrow(
      /could not write the GloVe cache .*SMRITI_CACHE_DIR/,
    );
  });
});
