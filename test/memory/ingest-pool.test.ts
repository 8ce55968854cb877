// Ingest workers: a worker's analysis equals the loop's, the stored result is the same with or without workers, and a
// worker that cannot start costs nothing but speed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { analyseDocument } from "../../src/services/memory/analyse.ts";
import { IngestPool } from "../../src/services/memory/ingest-pool.ts";
import { editionText } from "../helpers/documents.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { toyEmbedder } from "../helpers/toy-embedder.ts";

let glove: Embedder;
const long = editionText("first", 120); // ~7 KB: above the size analysed inline
const ingest = (svc: TestService, content: string, path = "notes/long.md") =>
  svc.post("/v1/memory/ingest", { content, source_path: path });

beforeAll(async () => {
  glove = await loadGloveEmbedder();
});

describe("ingest workers", { timeout: 60_000 }, () => {
  it("chunk, tokenize and embed on a worker exactly as on the loop", async () => {
    expect(long.length).toBeGreaterThan(4096);
    const pool = new IngestPool(2, glove.portable!);
    try {
      const [a, b] = await Promise.all([
        pool.analyse(long, "markdown"),
        pool.analyse("plain text\n\nsecond paragraph", "text"),
      ]);
      const chunks = [...analyseDocument(long, "markdown")];
      expect(a.chunks).toEqual(chunks);
      expect(a.vectors).toEqual(await glove.embed(chunks.map((c) => c.text)));
      expect(b).toEqual({
        chunks: [...analyseDocument("plain text\n\nsecond paragraph", "text")],
        vectors: await glove.embed(["plain text\n\nsecond paragraph"]),
      });
    } finally {
      await pool.close();
    }
  });

  it("start on demand up to the pool's size and exit when idle", async () => {
    // Idle for 1 s: long enough that neither exits while the other still works on a loaded machine.
    const pool = new IngestPool(2, null, 1_000);
    try {
      expect(pool.running).toBe(0);
      await Promise.all([1, 2, 3].map((i) => pool.analyse(`${long}\n${i}`, "markdown")));
      expect(pool.running).toBe(2);
      const until = Date.now() + 6_000;
      while (pool.running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(pool.running).toBe(0);
      const again = await pool.analyse(long, "markdown");
      expect(again).toEqual({ chunks: [...analyseDocument(long, "markdown")], vectors: null });
      expect(pool.running).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("store the same chunks and vectors as ingest without workers", async () => {
    const [pooled, inline] = await Promise.all([
      startTestService({ embedder: glove, env: { SMRITI_INGEST_WORKERS: "1" } }),
      startTestService({ embedder: glove, env: { SMRITI_INGEST_WORKERS: "0" } }),
    ]);
    try {
      const bodies = await Promise.all([pooled, inline].map(async (svc) => (await ingest(svc, long)).json()));
      expect(bodies[0]).toEqual(bodies[1]);
      const hashes = (bodies[0] as { added: { chunk_hash: string }[] }).added.map((a) => a.chunk_hash);
      expect(hashes.length).toBeGreaterThan(20);
      const [p, i] = await Promise.all(
        [pooled, inline].map((svc) => svc.runtime.store.documents.getEmbeddings(glove.id, hashes)),
      );
      expect(p!.size).toBe(hashes.length);
      for (const h of hashes) expect(p!.get(h)).toEqual(i!.get(h));
    } finally {
      await Promise.all([pooled.cleanup(), inline.cleanup()]);
    }
  });

  describe("when a worker cannot start", () => {
    const broken: Embedder = {
      ...toyEmbedder,
      portable: { module: "data:text/javascript,throw new Error('no model here')", init: null },
    };
    let svc: TestService;
    beforeAll(async () => {
      svc = await startTestService({ embedder: broken, env: { SMRITI_INGEST_WORKERS: "1" } });
    });
    afterAll(() => svc.cleanup());

    it("rejects the pool's requests with the worker's error", async () => {
      const pool = new IngestPool(1, broken.portable!);
      await expect(pool.analyse(long, "markdown")).rejects.toThrow(/no model here/);
      await pool.close();
    });

    it("still ingests, on the loop, with the embedder's own vectors", async () => {
      const res = await ingest(svc, long);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { added: { chunk_hash: string }[] };
      const stored = await svc.runtime.store.documents.getEmbeddings(
        toyEmbedder.id,
        body.added.map((a) => a.chunk_hash),
      );
      expect(stored.size).toBe(body.added.length);
      const again = await ingest(svc, editionText("second", 120), "notes/other.md");
      expect(again.status).toBe(200);
    });
  });
});
