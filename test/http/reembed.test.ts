// Background embedding: a vault built without vectors (or while the embedder failed) gets them later, recall working throughout.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import type { Embedder } from "../../src/ports/embedding.ts";

const DOCS = {
  "pets.md": "# Pets\n\nThe puppy chased a kitten around the garden all afternoon.",
  "tax.md": "# Taxes\n\nQuarterly filings are due at the end of the month.",
};

describe("background re-embedding", () => {
  let dataDir: string;
  let glove: Embedder;
  const open = (embedder: Embedder | null) =>
    createRuntime(loadConfig({}, { data: dataDir }), {
      embedder,
      log: () => {},
      background: true,
      reembedRetryMs: 200,
    });
  const ws = async (rt: FullRuntime) => (await rt.store.workspaces.findWorkspace("default"))!.id;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "smriti-reembed-"));
    glove = await loadGloveEmbedder();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("switching from no embedder to GloVe fills every chunk's vector in the background while recall keeps answering", async () => {
    const lexicalOnly = await open(null);
    for (const [path, content] of Object.entries(DOCS))
      await lexicalOnly.ingest.ingest(await ws(lexicalOnly), { source_path: path, content });
    await lexicalOnly.close();

    const rt = await open(glove);
    // Recall answers at once (lexical signal) whatever the background job has done so far.
    expect((await rt.memory.recall(await ws(rt), { query: "puppy garden" })).hits[0]?.source_path).toBe("pets.md");
    await vi.waitFor(async () => expect(await rt.store.documents.chunksMissingEmbedding(glove.id, 10)).toEqual([]), {
      timeout: 10_000,
      interval: 50,
    });
    // Now the dense signal alone finds the pets note from words it does not contain.
    const dense = await rt.memory.recall(await ws(rt), { query: "dog playing with a cat", mode: "vector", k: 1 });
    expect(dense.hits[0]?.source_path).toBe("pets.md");
    await rt.close();
  });

  it("an ingest whose embedder fails still lands, and the job retries until the embedder recovers", async () => {
    let failing = true;
    const flaky: Embedder = {
      id: "flaky-glove",
      dimensions: glove.dimensions,
      embed: async (texts) => {
        if (failing) throw new Error("embedding service unavailable");
        return glove.embed(texts);
      },
    };
    const rt = await open(flaky);
    const res = await rt.ingest.ingest(await ws(rt), {
      source_path: "notes/late.md",
      content: "# Late\n\nThe ferry leaves the harbour at dawn.",
    });
    expect(res.added.length).toBe(1);
    expect((await rt.memory.recall(await ws(rt), { query: "ferry harbour" })).hits[0]?.source_path).toBe(
      "notes/late.md",
    );
    expect((await rt.store.documents.chunksMissingEmbedding(flaky.id, 10)).length).toBeGreaterThan(0);
    failing = false; // the job retries on its own after reembedRetryMs
    await vi.waitFor(async () => expect(await rt.store.documents.chunksMissingEmbedding(flaky.id, 10)).toEqual([]), {
      timeout: 10_000,
      interval: 50,
    });
    await rt.close();
  });
});
