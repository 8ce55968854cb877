// Hybrid's dense KNN leg: off by default with GloVe (measured useless), on with SMRITI_DENSE_KNN=1 or a neural embedder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { createRuntime } from "../../src/main.ts";
import type { Embedder } from "../../src/ports/embedding.ts";

describe("hybrid recall's dense candidates", () => {
  const dirs: string[] = [];
  let glove: Embedder;
  beforeAll(async () => {
    glove = await loadGloveEmbedder();
  });
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const hits = async (env: Record<string, string>, embedder: Embedder) => {
    const data = mkdtempSync(join(tmpdir(), "smriti-knn-"));
    dirs.push(data);
    const rt = await createRuntime(loadConfig(env, { data }), { embedder, log: () => {} });
    const ws = (await rt.store.workspaces.findWorkspace("default"))!.id;
    await rt.ingest.ingest(ws, { source_path: "pets.md", content: "The puppy chased a kitten around the garden." });
    await rt.ingest.ingest(ws, {
      source_path: "tax.md",
      content: "Quarterly filings are due at the end of the month.",
    });
    // Shares no word with pets.md: only the dense signal can find it.
    const res = await rt.memory.recall(ws, { query: "dog", k: 5 });
    await rt.close();
    return res.hits.map((h) => h.source_path);
  };

  it("with GloVe, hybrid re-scores BM25's candidates only: a query sharing no word finds nothing", async () => {
    expect(await hits({}, glove)).toEqual([]);
  });

  it("SMRITI_DENSE_KNN=1 adds the nearest neighbours, so the semantically close note is found", async () => {
    expect((await hits({ SMRITI_DENSE_KNN: "1" }, glove))[0]).toBe("pets.md");
  });

  it("a non-GloVe embedder gets the KNN leg by default", async () => {
    const neural: Embedder = { id: "neural-test", dimensions: glove.dimensions, embed: (t) => glove.embed(t) };
    expect((await hits({}, neural))[0]).toBe("pets.md");
  });
});
