// Recall and pack with the offline GloVe embedder: dense signals, vector mode, embeddings stored at ingest.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { IngestResponse, PackResponse, RecallResponse } from "../../src/contract/memory.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
let embedder: Embedder;
const docs: Record<string, string> = {
  "pets/dog.md": "# Dogs\n\nThe puppy barked at the mailman and chased the cat around the garden.\n",
  "food/bread.md": "# Baking\n\nKnead the dough, let it rise overnight, then bake the loaf in a hot oven.\n",
  "space/launch.md": "# Rockets\n\nThe rocket engine ignited and the spacecraft climbed into orbit.\n",
};
const added = new Map<string, string>();

beforeAll(async () => {
  embedder = await loadGloveEmbedder();
  svc = await startTestService({ embedder });
  for (const [source_path, content] of Object.entries(docs)) {
    const res = await svc.post("/v1/memory/ingest", { source_path, content });
    expect(res.status).toBe(200);
    added.set(source_path, ((await res.json()) as IngestResponse).added[0]!.chunk_hash);
  }
});
afterAll(async () => svc.cleanup());

const recall = async (body: Record<string, unknown>) =>
  (await (await svc.post("/v1/memory/recall", body)).json()) as RecallResponse;

describe("with an embedder", () => {
  it("stores a vector for every added chunk at ingest", async () => {
    const vectors = await svc.runtime.store.documents.getEmbeddings(embedder.id, [...added.values()]);
    expect(vectors.size).toBe(added.size);
    for (const v of vectors.values()) expect(v).toHaveLength(embedder.dimensions);
  });

  it("embeds a new note with GloVe without first reading which vectors are stored (cheaper than the look-up)", async () => {
    const lookups = vi.spyOn(svc.runtime.store.documents, "getEmbeddings");
    try {
      const res = await svc.post("/v1/memory/ingest", {
        source_path: "birds/heron.md",
        content: "# Herons\n\nThe heron waded through the shallow marsh at dawn.\n",
      });
      expect(res.status).toBe(200);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
    const [chunk] = await svc.runtime.store.documents.documentChunks(svc.workspaceId, "birds/heron.md");
    const stored = await svc.runtime.store.documents.getEmbeddings(embedder.id, [chunk!.chunkHash]);
    expect(stored.get(chunk!.chunkHash)).toEqual((await embedder.embed([chunk!.text]))[0]);
  });

  it("vector mode finds a semantically related passage with no shared words", async () => {
    const res = await recall({ query: "astronaut satellite", mode: "vector", k: 1, explain: true });
    expect(res.mode).toBe("vector");
    expect(res.hits[0]?.source_path).toBe("space/launch.md");
    expect(res.explain![0]!.dense).not.toBeNull();
    expect(res.explain![0]!.bm25).toBe(0);
    expect(res.hits[0]!.score).toBeGreaterThanOrEqual(0);
    expect(res.hits[0]!.score).toBeLessThanOrEqual(1);
  });

  it("hybrid mode reports both signals per hit, with scores in [0, 1]", async () => {
    const res = await recall({ query: "puppy chased the cat", explain: true, k: 3 });
    expect(res.hits[0]?.source_path).toBe("pets/dog.md");
    for (const [i, h] of res.hits.entries()) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
      const e = res.explain![i]!;
      expect(e.dense).not.toBeNull();
      // "expansion" is there when manas expanded the query (GloVe neighbours of its words).
      expect(
        Object.keys(e.contributions)
          .filter((k) => k !== "expansion")
          .sort(),
      ).toEqual(["bias", "calibration_bias", "dense", "gap", "lexical", "query_best", "rank"]);
    }
    const lexical = await recall({ query: "puppy chased the cat", mode: "lexical", explain: true });
    expect(lexical.explain!.every((e) => e.dense === null)).toBe(true);
  });

  it("vector-mode filters still apply", async () => {
    const res = await recall({
      query: "astronaut satellite",
      mode: "vector",
      filters: { source_path_prefix: "food/" },
    });
    expect(res.hits.map((h) => h.source_path)).toEqual(["food/bread.md"]);
  });

  it("a forgotten chunk leaves the vector index too", async () => {
    const res = await svc.post("/v1/memory/forget", { source_path: "space/launch.md" });
    expect(res.status).toBe(200);
    const after = await recall({ query: "astronaut satellite rocket orbit", mode: "vector", k: 10 });
    expect(after.hits.some((h) => h.source_path === "space/launch.md")).toBe(false);
    const pack = (await (
      await svc.post("/v1/memory/pack", { intent: "rocket orbit spacecraft" })
    ).json()) as PackResponse;
    expect(pack.items.some((i) => i.citation.source_path === "space/launch.md")).toBe(false);
  });
});
