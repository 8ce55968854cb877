// Recall prefers what is current without a recorded or detected replacement (issue 45 item 4): for a question about a
// value's present state, the statements of it by one speaker are ranked newest first, in the places they held.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecallResponse } from "../../src/contract/memory.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
const OLD = "chat/2023-08-11.txt";
const NEW = "chat/2023-09-30.txt";
beforeAll(async () => {
  svc = await startTestService();
  const notes = [
    {
      source_path: OLD,
      occurred_at: "2023-08-11T03:18:00Z",
      content: "I've bought three tops from H&M, the H&M summer tops I bought are lovely.",
    },
    { source_path: NEW, occurred_at: "2023-09-30T06:40:00Z", content: "By the way, I've got five tops from H&M now." },
    {
      source_path: "chat/2023-07-01.txt",
      occurred_at: "2023-07-01T10:00:00Z",
      content: "I returned a pair of jeans to the H&M store downtown.",
    },
  ];
  for (const note of notes) expect((await svc.post("/v1/memory/ingest", note)).status).toBe(200);
});
afterAll(async () => svc.cleanup());

async function recall(query: string, filters: Record<string, unknown> = {}): Promise<RecallResponse> {
  const res = await svc.post("/v1/memory/recall", { query, filters, explain: true });
  const json = (await res.json()) as RecallResponse;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

describe("current value first", () => {
  it("leaves the order alone for a question about before: the better match, the older statement, leads", async () => {
    const res = await recall("How many tops had I bought from H&M before?");
    expect(res.hits.slice(0, 2).map((h) => h.source_path)).toEqual([OLD, NEW]);
    expect(res.explain!.every((e) => e.contributions["current"] === undefined)).toBe(true);
  });

  it("ranks the newest statement of the value first for a question about now, in the places the two held", async () => {
    const before = await recall("How many tops had I bought from H&M before?");
    const res = await recall("How many tops have I bought from H&M so far?");
    expect(res.hits.slice(0, 2).map((h) => h.source_path)).toEqual([NEW, OLD]);
    const [first, second] = res.explain!;
    expect(first!.contributions["current"]).toBeGreaterThan(0);
    expect(second!.contributions["current"]).toBeCloseTo(-first!.contributions["current"]!, 9);
    expect(new Set(res.hits.map((h) => h.source_path))).toEqual(new Set(before.hits.map((h) => h.source_path)));
    expect(res.hits.some((h) => h.superseded_by)).toBe(false); // an order, not a recorded replacement
  });

  it("with detect_supersession, a statement it already put below its replacement is marked, not lowered again", async () => {
    const res = await recall("How many tops have I bought from H&M so far?", { detect_supersession: true });
    expect(res.hits.slice(0, 2).map((h) => h.source_path)).toEqual([NEW, OLD]);
    expect(res.hits[1]!.superseded_by?.source_path).toBe(NEW);
    expect(res.explain![1]!.contributions["current"]).toBeLessThan(0);
    expect(res.explain![1]!.contributions["superseded"]).toBeUndefined();
  });
});

describe("current value first, whatever k asks", () => {
  let many: TestService;
  beforeAll(async () => {
    many = await startTestService();
    const notes = [
      { source_path: OLD, occurred_at: "2023-08-11T03:18:00Z", content: "I've bought three tops from H&M so far." },
      {
        source_path: NEW,
        occurred_at: "2023-09-30T06:40:00Z",
        content: "By the way, I've got five tops from H&M now.",
      },
      // Closer matches that state no count: the newer statement sits below the rows a small k reads.
      ...Array.from({ length: 20 }, (_, i) => ({
        source_path: `chat/2023-08-${String(12 + i).padStart(2, "0")}.txt`,
        occurred_at: `2023-08-${String(12 + i).padStart(2, "0")}T10:00:00Z`,
        content: `Tops from H&M, tops I have bought so far: H&M tops, note ${i}.`,
      })),
    ];
    for (const note of notes) expect((await many.post("/v1/memory/ingest", note)).status).toBe(200);
  });
  afterAll(async () => many.cleanup());

  it("puts the newest statement in the same place for k = 3 as for k = 30", async () => {
    const ask = async (k: number) => {
      const res = await many.post("/v1/memory/recall", { query: "How many tops have I bought from H&M so far?", k });
      expect(res.status).toBe(200);
      return ((await res.json()) as RecallResponse).hits.map((h) => h.source_path);
    };
    const all = await ask(30);
    expect(all.indexOf(NEW)).toBeLessThan(all.indexOf(OLD));
    expect(await ask(3)).toEqual(all.slice(0, 3));
  });
});
