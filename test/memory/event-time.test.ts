// Event time over HTTP (issue 45 item 1): occurred_at on ingest, on citations, and the occurred_* / as_of filters.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { PackResponse, RecallResponse, SourceResponse } from "../../src/contract/memory.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
  const notes: [string, string, string | undefined][] = [
    ["diary/2022-03.md", "The team moved the billing database to PostgreSQL in March.", "2022-03-10T09:00:00Z"],
    [
      "diary/2023-05.md",
      "The team moved the billing database to CockroachDB after the outage.",
      "2023-05-08T13:56:00+02:00",
    ],
    [
      "diary/undated.md",
      "---\ndate: 2024-01-15\n---\nThe team moved the billing database back to PostgreSQL.",
      undefined,
    ],
  ];
  for (const [source_path, content, occurred_at] of notes)
    expect(
      (await svc.post("/v1/memory/ingest", { source_path, content, ...(occurred_at ? { occurred_at } : {}) })).status,
    ).toBe(200);
});
afterEach(async () => svc.cleanup());

async function ok<T>(path: string, body: unknown): Promise<T> {
  const res = await svc.post(path, body);
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}
const query = "billing database moved";
const recall = (filters: Record<string, unknown>) => ok<RecallResponse>("/v1/memory/recall", { query, filters });
const when = (r: RecallResponse) => Object.fromEntries(r.hits.map((h) => [h.source_path, h.occurred_at]));

describe("event time", () => {
  it("cites each chunk's occurred_at: given, normalized to UTC, or from the front matter", async () => {
    expect(when(await recall({}))).toEqual({
      "diary/2022-03.md": "2022-03-10T09:00:00.000Z",
      "diary/2023-05.md": "2023-05-08T11:56:00.000Z",
      "diary/undated.md": "2024-01-15T00:00:00.000Z",
    });
    const source = (await (
      await svc.get("/v1/memory/source", { source_path: "diary/2023-05.md" })
    ).json()) as SourceResponse;
    expect(source.occurred_at).toBe("2023-05-08T11:56:00.000Z");
    expect(Date.parse(source.ingested_at)).toBeGreaterThan(Date.parse(source.occurred_at));
  });

  it("filters by occurred_after (inclusive) and occurred_before (exclusive)", async () => {
    const paths = async (f: Record<string, unknown>) => Object.keys(when(await recall(f))).sort();
    expect(await paths({ occurred_after: "2023-05-08T11:56:00Z" })).toEqual(["diary/2023-05.md", "diary/undated.md"]);
    expect(await paths({ occurred_before: "2023-05-08T11:56:00Z" })).toEqual(["diary/2022-03.md"]);
    expect(await paths({ occurred_after: "2023-01-01T00:00:00Z", occurred_before: "2024-01-01T00:00:00Z" })).toEqual([
      "diary/2023-05.md",
    ]);
  });

  it("as_of keeps what had occurred by then, on recall, pack and grounded answers", async () => {
    const asOf = "2023-05-08T11:56:00Z";
    const past = await recall({ as_of: asOf });
    expect(Object.keys(when(past)).sort()).toEqual(["diary/2022-03.md", "diary/2023-05.md"]);
    expect(past.notes).toBeUndefined();
    const pack = await ok<PackResponse>("/v1/memory/pack", {
      intent: query,
      filters: { as_of: "2023-01-01T00:00:00Z" },
    });
    expect(pack.items.map((i) => i.citation.source_path)).toEqual(["diary/2022-03.md"]);
    const answer = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "Where did the team move the billing database?",
      filters: { as_of: "2023-01-01T00:00:00Z" },
      min_confidence: 0,
    });
    expect(answer.citations.every((c) => c.source_path === "diary/2022-03.md")).toBe(true);
    expect(answer.citations[0]!.occurred_at).toBe("2022-03-10T09:00:00.000Z");
  });

  it("allows a future as_of and says so", async () => {
    const future = await recall({ as_of: "2999-01-01T00:00:00Z" });
    expect(future.hits).toHaveLength(3);
    expect(future.notes).toEqual([expect.stringMatching(/^as_of 2999-01-01T00:00:00Z is in the future/)]);
  });

  it("dates a transcript's chunks by the session header above them", async () => {
    const transcript = [
      "# Chat with Caroline",
      "## Session 1 - 1:56 pm on 8 May, 2023",
      "Caroline: I went to the zorblat support group yesterday.",
      "## Session 2 - 25 May 2023",
      "Caroline: The zorblat group met again last Saturday.",
    ].join("\n\n");
    await ok("/v1/memory/ingest", {
      source_path: "chat/caroline.md",
      content: transcript,
      occurred_at: "2023-06-01T00:00:00Z",
    });
    const spans = async (filters: Record<string, unknown>) =>
      (await ok<RecallResponse>("/v1/memory/recall", { query: "zorblat group", filters })).hits.map((h) => [
        h.text_span.includes("yesterday") ? "session 1" : "session 2",
        h.occurred_at,
      ]);
    expect((await spans({})).sort()).toEqual([
      ["session 1", "2023-05-08T13:56:00.000Z"],
      ["session 2", "2023-05-25T00:00:00.000Z"],
    ]);
    expect(await spans({ occurred_after: "2023-05-20T00:00:00Z" })).toEqual([
      ["session 2", "2023-05-25T00:00:00.000Z"],
    ]);
  });

  it("answers a when-question with the resolved date, citing the original words", async () => {
    const said = "2023-05-08T13:56:00Z";
    const content = "Caroline: I went to the quilliv support group yesterday. It was powerful.";
    await ok("/v1/memory/ingest", { source_path: "chat/s1.txt", content, occurred_at: said });
    const body = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "When did Caroline go to the quilliv support group?",
      min_confidence: 0,
    });
    expect(body.answer).toBe("7 May 2023 ('yesterday', said on 8 May 2023)");
    expect(body.resolved_time).toEqual({
      text: "yesterday",
      start: body.citations[0]!.text_span.indexOf("yesterday"),
      end: body.citations[0]!.text_span.indexOf("yesterday") + 9,
      granularity: "day",
      resolved: "7 May 2023",
      from: "2023-05-07T00:00:00.000Z",
      to: "2023-05-08T00:00:00.000Z",
      reference: "2023-05-08T13:56:00.000Z",
      relative: true,
    });
    expect(body.citations[0]!.times).toEqual([body.resolved_time]);
  });

  it("keeps the words of undated text: no event time was given, so 'yesterday' is not read against the ingest time", async () => {
    const content = "Caroline: I went to the quilliv support group yesterday. It was powerful.";
    await ok("/v1/memory/ingest", { source_path: "chat/undated.txt", content });
    const body = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "When did Caroline go to the quilliv support group?",
      min_confidence: 0,
    });
    expect(body.citations[0]!.source_path).toBe("chat/undated.txt");
    expect(body.resolved_time).toBeUndefined();
    expect(body.citations[0]!.times).toBeUndefined();
    expect(body.answer).toContain("yesterday");
    expect(body.answer).not.toMatch(/\d{4}/);
    // Dated by a line above it, the same words resolve.
    await ok("/v1/memory/ingest", {
      source_path: "chat/undated.txt",
      content: `## Session 1 - 1:56 pm on 8 May, 2023\n\n${content}`,
    });
    const dated = await ok<GroundedAnswerResponse>("/v1/grounded/answer", {
      question: "When did Caroline go to the quilliv support group?",
      min_confidence: 0,
    });
    expect(dated.resolved_time?.resolved).toBe("7 May 2023");
  });

  const ingestReleases = async () => {
    await ok("/v1/memory/ingest", {
      source_path: "log/a.txt",
      content: "We shipped the glarbon release to every customer.",
      occurred_at: "2023-05-10T09:00:00Z",
    });
    await ok("/v1/memory/ingest", {
      source_path: "log/b.txt",
      content: "We shipped the glarbon release to the customers.",
      occurred_at: "2023-08-10T09:00:00Z",
    });
  };

  it("ranks evidence about a time the query names first", async () => {
    await ingestReleases();
    const first = async (query: string) => {
      const r = await ok<RecallResponse>("/v1/memory/recall", { query, mode: "lexical", explain: true });
      return [r.hits[0]!.source_path, r.explain![0]!.contributions["time"]];
    };
    expect(await first("glarbon release shipped in May 2023")).toEqual(["log/a.txt", 1]);
    expect(await first("glarbon release shipped in August")).toEqual(["log/b.txt", 1]);
  });

  it("packs evidence about a time the intent names first, as recall ranks it", async () => {
    await ingestReleases();
    const first = async (intent: string) =>
      (await ok<PackResponse>("/v1/memory/pack", { intent, budget_tokens: 200 })).items[0]!.citation.source_path;
    expect(await first("glarbon release shipped in May 2023")).toBe("log/a.txt");
    expect(await first("glarbon release shipped in August")).toBe("log/b.txt");
  });

  it("rejects an unparseable occurred_at with a 400 naming the field", async () => {
    for (const [path, body, field] of [
      ["/v1/memory/ingest", { content: "x", occurred_at: "last tuesday" }, "occurred_at"],
      ["/v1/memory/recall", { query, filters: { occurred_after: "2023-13-01T00:00:00Z" } }, "occurred_after"],
      ["/v1/memory/recall", { query, filters: { as_of: "2023-05-08" } }, "as_of"],
    ] as const) {
      const res = await svc.post(path, body);
      const err = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(res.status).toBe(400);
      expect(err.code).toBe("invalid_request");
      expect(err.message).toContain(field);
    }
  });
});
