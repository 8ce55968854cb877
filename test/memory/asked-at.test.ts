// A question's asking time (asked_at) over HTTP and MCP: its relative words ("last week") are read against it, default now.
import { describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { PackResponse, RecallResponse } from "../../src/contract/memory.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";

/** The service's clock: 16 August 2023, so a request without asked_at is asked then. */
const NOW = Date.parse("2023-08-16T09:00:00Z");
const mcp = useMcpService({ clock: { now: () => new Date(NOW) } });

const releases: [string, string][] = [
  ["log/may.txt", "2023-05-10T09:00:00Z"],
  ["log/august.txt", "2023-08-10T09:00:00Z"],
];
let ingested = false;
async function ingestReleases(): Promise<void> {
  if (ingested) return;
  for (const [source_path, occurred_at] of releases) {
    const content = "We shipped the glarbon release to the customers.";
    expect((await mcp.svc.post("/v1/memory/ingest", { source_path, content, occurred_at })).status).toBe(200);
  }
  ingested = true;
}

async function ok<T>(path: string, body: unknown): Promise<T> {
  const res = await mcp.svc.post(path, body);
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}
const query = "Which glarbon release did we ship last week?";
/** The first hit and its `time` term for the question asked at `asked_at` (or with none). */
async function first(asked: { asked_at?: string }): Promise<[string, number | undefined]> {
  await ingestReleases();
  const r = await ok<RecallResponse>("/v1/memory/recall", { query, mode: "lexical", explain: true, ...asked });
  return [r.hits[0]!.source_path, r.explain![0]!.contributions["time"]];
}

describe("asked_at", () => {
  it("reads the question's relative words against it, on recall, pack and grounded answers", async () => {
    expect(await first({ asked_at: "2023-05-16T10:00:00+02:00" })).toEqual(["log/may.txt", 1]);
    expect(await first({ asked_at: "2023-08-15T10:00:00+02:00" })).toEqual(["log/august.txt", 1]);
    const pack = await ok<PackResponse>("/v1/memory/pack", {
      intent: query,
      budget_tokens: 200,
      asked_at: "2023-05-16T10:00:00Z",
    });
    expect(pack.items[0]!.citation.source_path).toBe("log/may.txt");
    const answer = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: query,
      asked_at: "2023-05-16T10:00:00Z",
      min_confidence: 0,
    });
    expect(answer.citations[0]!.source_path).toBe("log/may.txt");
    // Each response says how the words were read: the week before the asking day, and a day either side.
    const read = ["'last week' read as 8-16 May 2023 (asked on 16 May 2023; see asked_at)"];
    expect([pack.notes, answer.notes]).toEqual([read, read]);
  });

  it("defaults to when the request arrives (the service's clock)", async () => {
    expect(await first({})).toEqual(["log/august.txt", 1]);
    const r = await ok<RecallResponse>("/v1/memory/recall", { query, mode: "lexical" });
    expect(r.notes).toEqual(["'last week' read as 8-16 August 2023 (asked on 16 August 2023; see asked_at)"]);
    const plain = await ok<RecallResponse>("/v1/memory/recall", { query: "glarbon release", mode: "lexical" });
    expect(plain.notes).toBeUndefined();
  });

  it("reads the asking day at its offset", async () => {
    await ok("/v1/memory/ingest", {
      source_path: "log/zindle.txt",
      content: "The zindle audit finished.",
      occurred_at: "2023-05-10T05:00:00Z",
    });
    const timeTerm = async (asked_at: string) => {
      const r = await ok<RecallResponse>("/v1/memory/recall", {
        query: "what finished yesterday in the zindle audit",
        mode: "lexical",
        explain: true,
        asked_at,
      });
      return r.explain![0]!.contributions["time"] ?? 0;
    };
    // 16:00 UTC on 12 May: "yesterday" is 11 May, a day either side from 10 May 00:00 UTC.
    expect(await timeTerm("2023-05-12T16:00:00Z")).toBe(1);
    // The same instant is 01:00 on 13 May at UTC+9: yesterday is 12 May there, a day either side from 10 May 15:00 UTC.
    expect(await timeTerm("2023-05-13T01:00:00+09:00")).toBe(0);
  });

  it("refuses a time it cannot read with a 400 naming asked_at", async () => {
    for (const [path, body] of [
      ["/v1/memory/recall", { query, asked_at: "yesterday" }],
      ["/v1/memory/pack", { intent: query, asked_at: "2023-05-16" }],
      ["/v1/grounded/answer", { question: query, asked_at: "2023-13-01T00:00:00Z" }],
    ] as const) {
      const res = await mcp.svc.post(path, body);
      const err = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(res.status).toBe(400);
      expect(err.code).toBe("invalid_request");
      expect(err.message).toContain("asked_at");
    }
  });

  it("is an argument of the MCP tools", async () => {
    await ingestReleases();
    const client = await mcp.connect();
    const recalled = await callTool<RecallResponse>(client, "service_recall", {
      query,
      mode: "lexical",
      asked_at: "2023-05-16T10:00:00Z",
    });
    expect(recalled.hits[0]!.source_path).toBe("log/may.txt");
    const bad = await client.callTool({ name: "service_recall", arguments: { query, asked_at: "last week" } });
    expect(toolError(bad).code).toBe("invalid_request");
  });
});
