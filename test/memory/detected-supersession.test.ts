// Detected supersession over HTTP (issue 45 item 4): with filters.detect_supersession a later statement of another value
// marks the earlier one superseded on recall, pack and grounded answers; off by default; as_of sees what was current then.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Citation } from "../../src/contract/citation.ts";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { PackResponse, RecallResponse } from "../../src/contract/memory.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
const OLD = { source_path: "chat/2023-08-11.txt", occurred_at: "2023-08-11T03:18:00Z" };
const NEW = { source_path: "chat/2023-09-30.txt", occurred_at: "2023-09-30T06:40:00Z" };
beforeAll(async () => {
  svc = await startTestService();
  const notes = [
    { ...OLD, content: "I've already bought three tops from H&M, I'm really loving their summer collection." },
    { ...NEW, content: "By the way, I've already got five tops from H&M so far, and I'm thinking of getting more." },
    {
      source_path: "chat/2023-07-01.txt",
      occurred_at: "2023-07-01T10:00:00Z",
      content: "I returned a pair of jeans to the H&M store downtown.",
    },
  ];
  for (const note of notes) expect((await svc.post("/v1/memory/ingest", note)).status).toBe(200);
});
afterAll(async () => svc.cleanup());

async function ok<T>(path: string, body: unknown): Promise<T> {
  const res = await svc.post(path, body);
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}
// Not a question about the present state, so the detector's own lowering shows (the current-value order: current-first.test.ts).
const query = "the tops I bought from H&M";
const recall = (filters: Record<string, unknown>) =>
  ok<RecallResponse>("/v1/memory/recall", { query, filters, explain: true });
const byPath = (cs: Citation[]) => new Map(cs.map((c) => [c.source_path, c]));

describe("detect_supersession", () => {
  it("is off by default: no marks, and the earlier statement keeps its rank", async () => {
    const hits = (await recall({})).hits;
    expect(hits.some((h) => h.superseded_by || h.supersedes)).toBe(false);
  });

  it("marks the earlier statement superseded by the later one and ranks the later first", async () => {
    const res = await recall({ detect_supersession: true });
    const hits = byPath(res.hits);
    const newer = hits.get(NEW.source_path)!;
    const older = hits.get(OLD.source_path)!;
    expect(res.hits[0]!.source_path).toBe(NEW.source_path);
    expect(older.superseded_by).toEqual({
      source_path: NEW.source_path,
      chunk_hash: newer.chunk_hash,
      at: "2023-09-30T06:40:00.000Z",
      detected: true,
    });
    expect(newer.supersedes).toMatchObject({
      source_path: OLD.source_path,
      chunk_hash: older.chunk_hash,
      detected: true,
    });
    expect(hits.get("chat/2023-07-01.txt")?.superseded_by).toBeUndefined();
    const olderAt = res.hits.indexOf(older);
    expect(res.explain![olderAt]!.contributions["superseded"]).toBe(-2);
  });

  it("as_of before the later statement leaves the earlier one current", async () => {
    const hits = (await recall({ detect_supersession: true, as_of: "2023-09-01T00:00:00Z" })).hits;
    expect(hits.map((h) => h.source_path)).not.toContain(NEW.source_path);
    expect(hits.some((h) => h.superseded_by || h.supersedes)).toBe(false);
  });

  it("marks pack items; a grounded answer is planned from what is current unless the question asks about before", async () => {
    const filters = { detect_supersession: true };
    const pack = await ok<PackResponse>("/v1/memory/pack", { intent: query, filters });
    expect(byPath(pack.items.map((i) => i.citation)).get(OLD.source_path)?.superseded_by?.source_path).toBe(
      NEW.source_path,
    );
    const answer = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "How many tops have I bought from H&M?",
      filters,
      min_confidence: 0,
    });
    // The answer is planned from what is current, and its citation names what it replaced; asked about the past, both count.
    expect(answer.answer).toBe("five");
    expect(answer.citations[0]).toMatchObject({ source_path: NEW.source_path, supersedes: { detected: true } });
    expect(answer.citations.map((c) => c.source_path)).not.toContain(OLD.source_path);
    const before = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "How many tops had I bought from H&M before?",
      filters,
      min_confidence: 0,
    });
    expect(before.citations.map((c) => c.source_path)).toContain(OLD.source_path);
  });
});
