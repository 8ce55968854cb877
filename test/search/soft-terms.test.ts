// Soft term matching: a query word no chunk has is matched to the near words (by meaning) the workspace holds, so
// hybrid recall finds a chunk that shares no word with the query (past the two words manas adds); off by default
// (SMRITI_SOFT_TERMS=1 turns it on).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { createRuntime } from "../../src/main.ts";
import { Bm25Index } from "../../src/search/bm25.ts";
import { softGroups, type SoftTermConfig } from "../../src/search/soft-terms.ts";

const config: SoftTermConfig = { neighbours: 20, floor: 0.6, perTerm: 3, maxShare: 1, k: 15, weight: 0.5 };
const NEAR: Record<string, { word: string; similarity: number }[]> = {
  artwork: [
    { word: "paintings", similarity: 0.74 },
    { word: "painting", similarity: 0.68 }, // the same BM25 term as "paintings": kept once
    { word: "drawings", similarity: 0.7 },
    { word: "features", similarity: 0.55 }, // below the floor
  ],
  lake: [{ word: "river", similarity: 0.7 }],
};
const asked: string[] = [];
const lexicon = {
  neighbours: (word: string) => {
    asked.push(word);
    return NEAR[word] ?? [];
  },
};

function index(): Bm25Index {
  const bm25 = new Bm25Index();
  ["I painted a sunrise over the lake", "Quarterly filings are due", "Pencil drawings of the river"].forEach((t, i) =>
    bm25.add(i + 1, tokenize(t)),
  );
  return bm25;
}

describe("soft term matching", () => {
  it("groups each query word with its near words above the floor, as BM25 terms, once each", () => {
    const groups = softGroups("Any artwork by the lake?", lexicon, config, () => false);
    expect(groups).toEqual([
      { exact: "artwork", terms: [tokenize("paintings")[0], tokenize("drawings")[0]], similarities: [0.74, 0.7] },
      { exact: "lake", terms: ["river"], similarities: [0.7] },
    ]);
  });

  it("with absentOnly, looks up only the words the index lacks", () => {
    asked.length = 0;
    const bm25 = index();
    const groups = softGroups("artwork by the lake", lexicon, { ...config, absentOnly: true }, (t) => bm25.df(t) > 0);
    expect(groups.map((g) => g.exact)).toEqual(["artwork"]);
    expect(asked).toEqual(["artwork"]);
  });

  it("scores a chunk by its best near word per query word it lacks, and finds chunks with no query word", () => {
    const bm25 = index();
    const soft = bm25.softScorer(
      softGroups("artwork lake", lexicon, config, () => false),
      3,
      1,
    );
    // Chunk 1 has "lake" (no soft credit for it) and "painted" (near "artwork"); chunk 3 has drawings and river.
    expect(soft.score(1)).toBeGreaterThan(0);
    expect(soft.score(2)).toBe(0);
    expect(soft.score(3)).toBeGreaterThan(soft.score(1));
    expect(soft.top(10).map((h) => h.id)).toEqual([3, 1]);
    expect(soft.max).toBeGreaterThanOrEqual(soft.score(3));
    expect(bm25.search(tokenize("artwork"), 10)).toEqual([]);
  });
});

describe("hybrid recall with soft term matching", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  async function recallWith(env: Record<string, string>) {
    const data = mkdtempSync(join(tmpdir(), "smriti-soft-"));
    dirs.push(data);
    const rt = await createRuntime(loadConfig(env, { data }), { embedder: await loadGloveEmbedder(), log: () => {} });
    const ws = (await rt.store.workspaces.findWorkspace("default"))!.id;
    const notes = ["I bought a porcelain vase for the hallway.", "The quarterly filings are due on Friday."];
    for (const [i, content] of notes.entries()) await rt.ingest.ingest(ws, { source_path: `notes/${i}.md`, content });
    const hybrid = await rt.memory.recall(ws, { query: "pottery", k: 5, explain: true });
    const lexical = await rt.memory.recall(ws, { query: "pottery", k: 5, mode: "lexical" });
    await rt.close();
    return { hybrid, lexical };
  }

  it("finds the chunk that shares no word with the query only when switched on, and explains it", async () => {
    const on = await recallWith({ SMRITI_SOFT_TERMS: "1" });
    expect(on.hybrid.hits.map((h) => h.source_path)).toEqual(["notes/0.md"]);
    expect(on.hybrid.explain![0]!.contributions["soft"]).toBeGreaterThan(0);
    expect(on.lexical.hits).toEqual([]);
    const off = await recallWith({});
    expect(off.hybrid.hits).toEqual([]);
  });
});
