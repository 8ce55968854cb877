// Re-analysing an unchanged document an older analysis stored (reanalysis.test.ts) changes its chunks' terms only: a
// chunk the caller forgot stays forgotten, and the document keeps its event time.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { RecallResponse } from "../../src/contract/memory.ts";
import { prepareDocument, T0 } from "../helpers/documents.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const filler = (topic: string): string =>
  Array.from({ length: 12 }, (_, i) => `Cohort ${i + 1} of the ${topic} study was followed for two years.`).join(" ");
const content = `Calciferol deficiency and hip fractures\n\n${filler("alpha")} zebrasecret\n\n${filler("beta")}`;
const path = "papers/bones.txt";

let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
  const { doc, chunks } = prepareDocument(path, content, { kind: "text", analysis: 0, authoredAt: T0 });
  for (const c of chunks) (c as { undated?: boolean }).undated = true;
  await svc.runtime.store.documents.replaceDocument(svc.workspaceId, doc, chunks);
});
afterEach(async () => svc.cleanup());

const recall = async (query: string, filters?: object) => {
  const res = await svc.post("/v1/memory/recall", { query, mode: "lexical", k: 10, ...(filters ? { filters } : {}) });
  expect(res.status).toBe(200);
  return ((await res.json()) as RecallResponse).hits.filter((h) => h.source_path === path);
};

it("keeps a chunk the caller forgot forgotten", async () => {
  const hit = (await recall("zebrasecret"))[0]!;
  const f = await svc.post("/v1/memory/forget", { chunk_hash: hit.chunk_hash });
  expect(f.status).toBe(200);
  expect(await recall("zebrasecret")).toHaveLength(0);
  const res = await svc.post("/v1/memory/ingest", { source_path: path, content, kind: "text" });
  expect(res.status).toBe(200);
  expect(await recall("zebrasecret")).toHaveLength(0);
});

it("keeps the event time the document was stored with (an undated one is not re-dated to now)", async () => {
  const asOf = new Date(T0 + 86_400_000).toISOString();
  expect((await recall("calciferol", { as_of: asOf })).length).toBeGreaterThan(0);
  const res = await svc.post("/v1/memory/ingest", { source_path: path, content, kind: "text" });
  expect(res.status).toBe(200);
  const hits = await recall("calciferol", { as_of: asOf });
  expect(hits.length).toBeGreaterThan(0);
});

it("keeps a document dated when it is sent again without its time, as the CLI sends it", async () => {
  const dated = "papers/dated.txt";
  const { doc, chunks } = prepareDocument(dated, content, { kind: "text", analysis: 0, authoredAt: T0 });
  await svc.runtime.store.documents.replaceDocument(svc.workspaceId, doc, chunks);
  const res = await svc.post("/v1/memory/ingest", { source_path: dated, content, kind: "text" });
  expect(res.status).toBe(200);
  const stored = await svc.runtime.store.documents.documentChunks(svc.workspaceId, dated);
  expect(stored.length).toBeGreaterThan(0);
  for (const c of stored) expect([c.authoredAt, c.undated ?? false]).toEqual([T0, false]);
});
