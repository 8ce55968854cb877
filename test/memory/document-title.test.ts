// A text document's title line is searched as part of every chunk, so a question naming what a paper is about finds
// the parts of it far from the title (its later chunks hold none of the title's words).
import { afterEach, beforeEach, expect, it } from "vitest";
import type { RecallResponse } from "../../src/contract/memory.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

// Two paragraphs of about 900 characters: together past a chunk's size, so each is a chunk of its own.
const filler = (topic: string): string =>
  Array.from({ length: 12 }, (_, i) => `Cohort ${i + 1} of the ${topic} study was followed for two years.`).join(" ");

let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
  const docs: [string, string][] = [
    ["papers/bones.txt", `Calciferol deficiency and hip fractures\n\n${filler("first")}\n\n${filler("second")}`],
    // No title: its first paragraph runs over several lines.
    ["papers/notes.txt", `Calciferol was measured\nin every patient\n\n${filler("third")}\n\n${filler("fourth")}`],
    // A chat's first message is no title: it is someone asking, not what the rest is about.
    ["chats/session.txt", `Can you tell me what calciferol does?\n\n${filler("fifth")}\n\n${filler("sixth")}`],
  ];
  for (const [source_path, content] of docs)
    expect((await svc.post("/v1/memory/ingest", { source_path, content })).status).toBe(200);
});
afterEach(async () => svc.cleanup());

const recall = async (query: string): Promise<RecallResponse> => {
  const res = await svc.post("/v1/memory/recall", { query, mode: "lexical", k: 10 });
  expect(res.status).toBe(200);
  return (await res.json()) as RecallResponse;
};

it("finds every chunk of a titled text document by its title's words, and only the first of an untitled one", async () => {
  const hits = (await recall("calciferol")).hits.map((h) => [h.source_path, h.text_span.includes("second")] as const);
  expect(hits).toContainEqual(["papers/bones.txt", true]);
  expect(hits.filter(([path]) => path === "papers/bones.txt")).toHaveLength(2);
  expect(hits.filter(([path]) => path === "papers/notes.txt")).toHaveLength(1);
  expect(hits.filter(([path]) => path === "chats/session.txt")).toHaveLength(1);
});
