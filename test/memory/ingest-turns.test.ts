// Small writes wait for their turn of the event loop before they are analysed (src/threads/turn-gate.ts): a recall
// that arrives while writes are queued is answered first, not after every queued write's analysis and embedding.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecallResponse } from "../../src/contract/memory.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { toyEmbedder } from "../helpers/toy-embedder.ts";

const embedded: string[] = [];
const recordingEmbedder: Embedder = {
  ...toyEmbedder,
  embed: (texts) => (embedded.push(...texts), toyEmbedder.embed(texts)),
};

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ embedder: recordingEmbedder });
});
afterAll(() => svc.cleanup());

const note = (i: number) => `Harbour log ${i}: the ferry quillwharf${i} left the pier at dawn.`;

describe("small writes and recall on one event loop", () => {
  it("answers a recall sent after eight small writes before any of them is analysed, then stores all eight", async () => {
    embedded.length = 0;
    const writes = Array.from({ length: 8 }, (_, i) =>
      svc.post("/v1/memory/ingest", { source_path: `harbour/${i}.md`, content: note(i) }),
    );
    const recall = await svc.post("/v1/memory/recall", { query: "ferry pier dawn" });
    expect(recall.status).toBe(200);
    const notesEmbeddedBeforeRecall = embedded.filter((t) => t.startsWith("Harbour log")).length;
    expect(notesEmbeddedBeforeRecall).toBe(0);

    expect((await Promise.all(writes)).map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(embedded.filter((t) => t.startsWith("Harbour log"))).toHaveLength(8);
    const after = (await (
      await svc.post("/v1/memory/recall", { query: "quillwharf3", mode: "lexical" })
    ).json()) as RecallResponse;
    expect(after.hits.map((h) => h.source_path)).toEqual(["harbour/3.md"]);
  });
});
