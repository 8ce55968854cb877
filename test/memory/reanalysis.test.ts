// A document stored by an older analysis (before titles) is re-analysed when the same content is ingested again, so
// its chunks gain the terms the current analysis gives them; one stored by the current analysis stays unchanged.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { IngestResponse, RecallResponse } from "../../src/contract/memory.ts";
import { prepareDocument } from "../helpers/documents.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

// Two paragraphs of about 900 characters: together past a chunk's size, so each is a chunk of its own.
const filler = (topic: string): string =>
  Array.from({ length: 12 }, (_, i) => `Cohort ${i + 1} of the ${topic} study was followed for two years.`).join(" ");
const content = `Calciferol deficiency and hip fractures\n\n${filler("first")}\n\n${filler("second")}`;
const path = "papers/bones.txt";

let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
  // As a store written before titles holds it: version 0, each chunk's terms its own text's alone.
  const { doc, chunks } = prepareDocument(path, content, { kind: "text", analysis: 0 });
  await svc.runtime.store.documents.replaceDocument(svc.workspaceId, doc, chunks);
});
afterEach(async () => svc.cleanup());

const chunksFound = async (query: string): Promise<number> => {
  const res = await svc.post("/v1/memory/recall", { query, mode: "lexical", k: 10 });
  expect(res.status).toBe(200);
  return ((await res.json()) as RecallResponse).hits.filter((h) => h.source_path === path).length;
};
const ingest = async (): Promise<IngestResponse> => {
  const res = await svc.post("/v1/memory/ingest", { source_path: path, content, kind: "text" });
  expect(res.status).toBe(200);
  return (await res.json()) as IngestResponse;
};

it("re-analyses an unchanged document an older analysis stored, then keeps it unchanged", async () => {
  expect(await chunksFound("calciferol")).toBe(1);
  const first = await ingest();
  expect(first).toMatchObject({ unchanged: false, chunks: 2, added: [], removed: [] });
  expect(first.kept).toHaveLength(2);
  expect(await chunksFound("calciferol")).toBe(2);
  expect(await ingest()).toMatchObject({ unchanged: true, chunks: 2 });
});
