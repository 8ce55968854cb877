// A local ONNX model (SMRITI_EMBED_MODEL) through the runtime: ingest on worker threads, the switch from GloVe (recall
// answers from GloVe's vectors until the model's are whole), restart, the dense scan it turns on, start-up errors.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { GLOVE_EMBEDDER_ID, loadGloveEmbedder } from "../../src/embed/glove.ts";
import { loadOnnxEmbedder, type OnnxEmbedder } from "../../src/embed/onnx.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { ThreadQueryEmbedder } from "../../src/services/memory/query-embedder.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { writeCalibration } from "../../src/search/stored-calibration.ts";
import { freshSchemaUrl } from "../helpers/postgres.ts";
import { TINY_MODEL } from "../helpers/tiny-model.ts";

const DOCS = {
  "decision.md": "We picked Postgres because the team decided it.",
  "pets.md": "The cat sat on the mat! The dog sat too.",
  "runs.md": "Running jumps fast, walking slow.",
};

describe("a local ONNX model as the embedder", () => {
  let dataDir: string;
  let store: Record<string, string>;
  let glove: Embedder;
  let tiny: OnnxEmbedder;
  const logs: string[] = [];
  const open = (env: Record<string, string>, opts: { embedder?: Embedder; background?: boolean } = {}) =>
    createRuntime(loadConfig({ ...store, SMRITI_INGEST_WORKERS: "1", ...env }, { data: dataDir }), {
      log: (m) => logs.push(m),
      background: opts.background ?? false,
      ...(opts.embedder ? { embedder: opts.embedder } : {}),
    });
  const ws = async (rt: FullRuntime) => (await rt.store.workspaces.findWorkspace("default"))!.id;
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  /** Each hit's dense signal against the cosine of `embedder`'s query vector and the chunk's stored vector. */
  async function denseFrom(rt: FullRuntime, embedder: Embedder, query: string): Promise<void> {
    const res = await rt.memory.recall(await ws(rt), { query, mode: "vector", k: 3, explain: true });
    expect(res.hits.length).toBeGreaterThan(0);
    const [q] = await embedder.embed([query]);
    const stored = await rt.store.documents.getEmbeddings(
      embedder.id,
      res.hits.map((h) => h.chunk_hash),
    );
    // The index keeps vectors quantized: its cosine agrees to about 1e-3.
    res.hits.forEach((h, i) => expect(res.explain![i]!.dense).toBeCloseTo(dot(q!, stored.get(h.chunk_hash)!), 2));
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "smriti-local-model-"));
    store = process.env["SMRITI_TEST_STORE"] === "postgres" ? { SMRITI_DATABASE_URL: await freshSchemaUrl() } : {};
    glove = await loadGloveEmbedder();
    tiny = await loadOnnxEmbedder(TINY_MODEL);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("switching from GloVe: recall answers from GloVe's vectors until the model's are whole, then from the model's", async () => {
    const before = await open({}, { embedder: glove });
    for (const [path, content] of Object.entries(DOCS))
      await before.ingest.ingest(await ws(before), { source_path: path, content });
    await before.close();

    // No re-embed job runs here: the model's vectors stay partial, so recall stays with GloVe's.
    const switching = await open({ SMRITI_EMBED_MODEL: TINY_MODEL });
    expect(switching.embedder?.id).toBe(tiny.id);
    expect(switching.dense.current().embedder?.id).toBe(GLOVE_EMBEDDER_ID);
    await denseFrom(switching, glove, "who picked the database");
    // A new document is embedded by the model on an ingest thread, to the loop's vectors.
    const content = "Memory recall is a vector search.";
    const added = await switching.ingest.ingest(await ws(switching), { source_path: "memory.md", content });
    const hash = added.added[0]!.chunk_hash;
    const fromThread = (await switching.store.documents.getEmbeddings(tiny.id, [hash])).get(hash);
    const [onLoop] = await tiny.embed([content]);
    fromThread!.forEach((x, i) => expect(x).toBeCloseTo(onLoop![i]!, 6));
    expect(switching.dense.current().embedder?.id).toBe(GLOVE_EMBEDDER_ID);

    // The serving process re-embeds in the background (on the ingest thread) and hands over once every chunk has its vector.
    const serving = await open({ SMRITI_EMBED_MODEL: TINY_MODEL }, { background: true });
    await expect.poll(() => serving.dense.current().embedder?.id).toBe(tiny.id);
    expect(await serving.store.documents.chunksMissingEmbedding(tiny.id, 1)).toEqual([]);
    await denseFrom(serving, tiny, "who picked the database");
    // A process that does not re-embed (a group's other worker) sees the job finish and hands over too.
    await expect.poll(() => switching.dense.current().embedder?.id).toBe(tiny.id);
    await denseFrom(switching, tiny, "who picked the database");
    await switching.close();
    await serving.close();
    expect(logs.some((m) => m.includes(`recall uses ${GLOVE_EMBEDDER_ID} until it is done`))).toBe(true);
  });

  it("after a restart the model answers at once, and hybrid recall scans its vectors (SMRITI_DENSE_KNN follows the model)", async () => {
    const rt = await open({ SMRITI_EMBED_MODEL: TINY_MODEL });
    expect(rt.dense.current().embedder?.id).toBe(tiny.id);
    // Queries embed on a thread of their own (an ONNX session blocks the thread it runs on), to the loop's vectors.
    const queries = rt.dense.current().embedder as ThreadQueryEmbedder;
    expect(queries).toBeInstanceOf(ThreadQueryEmbedder);
    expect(queries.running).toBe(0);
    await denseFrom(rt, tiny, "the team decided");
    expect(queries.running).toBe(1);
    // No chunk holds "zebra": BM25 finds nothing, so only the dense scan can return hits.
    const scan = await rt.memory.recall(await ws(rt), { query: "zebra", mode: "hybrid", k: 3 });
    expect(scan.hits.length).toBeGreaterThan(0);
    await rt.close();
    const off = await open({ SMRITI_EMBED_MODEL: TINY_MODEL, SMRITI_DENSE_KNN: "0" });
    expect((await off.memory.recall(await ws(off), { query: "zebra", mode: "hybrid", k: 3 })).hits).toEqual([]);
    await off.close();
  });

  it("scores with the fit stored for the model's id (npm run eval -- calibrate --embedder); a malformed one stops the start", async () => {
    const dir = loadConfig({}, { data: dataDir }).calibrationDir;
    const hybrid = {
      fusion: { lexical: 5, dense: 2, bias: -3.25 },
      calibration: { gap: 0, best: 0, rank: 0, bias: 0 },
    };
    const file = writeCalibration(dir, tiny.id, { ...defaultRetrievalConfig, hybrid }, new Date());
    const rt = await open({ SMRITI_EMBED_MODEL: TINY_MODEL });
    const res = await rt.memory.recall(await ws(rt), { query: "the team decided", k: 3, explain: true });
    expect(res.explain![0]!.contributions["bias"]).toBe(-3.25);
    await rt.close();
    writeFileSync(file, '{"embedder":"elsewhere"}');
    await expect(open({ SMRITI_EMBED_MODEL: TINY_MODEL })).rejects.toThrow(`${file} is not a calibration file`);
    rmSync(file);
  });

  it("a missing model directory stops the start with an error naming it", async () => {
    const missing = join(dataDir, "no-such-model");
    await expect(open({ SMRITI_EMBED_MODEL: missing })).rejects.toThrow(
      `SMRITI_EMBED_MODEL=${missing}: is not a directory`,
    );
  });
});
