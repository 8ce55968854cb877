// Stored decisions over HTTP and MCP: idempotent record, namespace listing with stable cursor paging, fetch by ref, workspace isolation.
import { beforeAll, describe, expect, it } from "vitest";
import type { DecisionListResponse, DecisionRecord, DecisionExtractResponse } from "../../src/contract/decisions.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";
import type { TestService } from "../helpers/runtime.ts";

let svc: TestService;
const service = useMcpService({ multiTenant: true, actors: ["alice"] });
beforeAll(() => {
  svc = service.svc;
});

const asAlice = { "x-svc-actor-id": "alice" };
const record = async (body: Record<string, unknown>, headers: Record<string, string | null> = asAlice) => {
  const res = await svc.post("/v1/decisions", body, headers);
  return { status: res.status, body: (await res.json()) as DecisionRecord & { error?: { code: string } } };
};
const events = async (type: string) =>
  (
    (await (await svc.get("/v1/audit/event_log", { type, limit: "1000" })).json()) as {
      events: { payload: { ref: string } }[];
    }
  ).events;

describe("POST /v1/decisions", () => {
  it("records once: the same decision again returns the identical response and writes nothing", async () => {
    const body = {
      namespace: "storage",
      title: "Use SQLite for the vault",
      decision: "The vault lives in one SQLite file in WAL mode.",
      context: "Laptops have no database server.",
      options: ["SQLite", "PostgreSQL"],
      chosen_option: "SQLite",
      date: "2024-03-01",
    };
    const first = await record(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      namespace: "storage",
      title: body.title,
      status: "accepted",
      date: "2024-03-01",
      recorded_by: "alice",
      source_path: `decisions/storage/${first.body.ref}.md`,
    });
    expect(first.body.ref).toMatch(/^dec_[0-9a-f]{20}$/);
    const before = (await events("decision.recorded")).length;
    const again = await record({ ...body, options: ["SQLite", "PostgreSQL"] }, {});
    expect(again).toEqual(first);
    expect((await events("decision.recorded")).length).toBe(before);
    // A changed field is another decision.
    const other = await record({ ...body, status: "Superseded" });
    expect(other.body.ref).not.toBe(first.body.ref);
    expect(other.body.status).toBe("superseded");
  });

  it("stores the decision as an ADR note that recall finds and decision extraction reads back, cited in the response", async () => {
    const { body } = await record({
      namespace: "ops",
      title: "Page the on-call engineer for sev1 only",
      decision: "Only sev1 incidents page the on-call engineer; the rest wait for office hours.",
      consequences: "Fewer night pages.",
    });
    for (const c of body.citations) expect(c.source_path).toBe(body.source_path);
    expect(body.citations.map((c) => c.text_span).join("\n")).toContain(body.decision);
    const hits = (
      (await (await svc.post("/v1/memory/recall", { query: "which incidents page the on-call engineer" })).json()) as {
        hits: { source_path: string; chunk_hash: string }[];
      }
    ).hits;
    expect(hits[0]?.source_path).toBe(body.source_path);
    expect(body.citations.map((c) => c.chunk_hash)).toContain(hits[0]?.chunk_hash);
    const note = (await svc.runtime.store.documents.getDocument(svc.workspaceId, body.source_path))!.content;
    const extracted = (
      (await (await svc.post("/v1/decisions/extract", { content: note })).json()) as DecisionExtractResponse
    ).decisions;
    expect(extracted).toHaveLength(1);
    expect(extracted[0]).toMatchObject({ title: body.title, status: "accepted", consequences: "Fewer night pages." });
    expect(extracted[0]!.decision).toContain(body.decision);
  });

  it("cites evidence passages by chunk_hash, and refuses unknown evidence with 422 without writing", async () => {
    const ingest = (await (
      await svc.post("/v1/memory/ingest", {
        source_path: "notes/bench.md",
        content: "# Bench\n\nSQLite served 100k chunks at 1 ms p50.\n",
      })
    ).json()) as { added: { chunk_hash: string }[] };
    const hash = ingest.added[0]!.chunk_hash;
    const { body } = await record({
      namespace: "storage",
      title: "Keep SQLite as the default",
      decision: "SQLite stays the embedded default.",
      evidence: [hash],
    });
    const cited = body.citations.find((c) => c.chunk_hash === hash);
    expect(cited).toMatchObject({ source_path: "notes/bench.md", score: 1 });
    expect(cited!.text_span).toContain("100k chunks");

    const decisionsBefore = (await events("decision.recorded")).length;
    const missing = `sha256:${"e".repeat(64)}`;
    const refused = await record({
      namespace: "storage",
      title: "Unfounded",
      decision: "Nothing backs this.",
      evidence: [missing],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.code).toBe("evidence_not_found");
    expect((await events("decision.recorded")).length).toBe(decisionsBefore);
    expect(
      (await svc.runtime.store.documents.listDocuments(svc.workspaceId, "decisions/storage/")).some((d) =>
        d.content.includes("Unfounded"),
      ),
    ).toBe(false);
  });

  it("rejects bad namespaces, dates and empty fields with 400", async () => {
    for (const bad of [
      { title: "T", decision: "D", namespace: "Has Spaces" },
      { title: "T", decision: "D", date: "2024-13-01" },
      { title: "  ", decision: "D" },
      { title: "T" },
    ]) {
      const res = await record(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error?.code).toBe("invalid_request");
    }
  });
});

describe("GET /v1/decisions and /v1/decisions/{ref}", () => {
  it("lists newest first within a namespace, and pages without skips or repeats while decisions are recorded", async () => {
    const refs: string[] = [];
    for (let i = 0; i < 7; i++)
      refs.push(
        (await record({ namespace: "paging", title: `Decision ${i}`, decision: `Choice number ${i}.` })).body.ref,
      );
    await record({ namespace: "elsewhere", title: "Not listed", decision: "Other namespace." });
    const seen: string[] = [];
    let cursor: string | undefined;
    let inserted = 0;
    do {
      const page = (await (
        await svc.get("/v1/decisions", { namespace: "paging", limit: "3", ...(cursor ? { cursor } : {}) })
      ).json()) as DecisionListResponse;
      seen.push(...page.decisions.map((d) => d.ref));
      // A decision recorded mid-paging lands on an earlier (newer) page, never inside the remaining ones.
      if (inserted++ === 0)
        await record({ namespace: "paging", title: "Late decision", decision: "Recorded while a client pages." });
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...refs].reverse());
    const all = (await (await svc.get("/v1/decisions", { limit: "200" })).json()) as DecisionListResponse;
    expect(all.decisions.some((d) => d.namespace === "elsewhere")).toBe(true);
    expect(all.decisions[0]?.title).toBe("Late decision");
  });

  it("fetches by ref; unknown refs, refs of another workspace and foreign cursors are refused", async () => {
    const { body } = await record({ namespace: "eng", title: "Fetch me", decision: "By ref." });
    const got = await svc.get(`/v1/decisions/${body.ref}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(body);
    const unknown = await svc.get(`/v1/decisions/dec_${"0".repeat(20)}`);
    expect(unknown.status).toBe(404);
    const beta = (await svc.issueToken("beta")).token;
    const foreign = await svc.get(`/v1/decisions/${body.ref}`, {}, { authorization: `Bearer ${beta}` });
    expect(foreign.status).toBe(404);
    const betaList = (await (
      await svc.get("/v1/decisions", {}, { authorization: `Bearer ${beta}` })
    ).json()) as DecisionListResponse;
    expect(betaList.decisions).toEqual([]);
    const page = (await (await svc.get("/v1/decisions", { limit: "1" })).json()) as DecisionListResponse;
    const misused = await svc.get("/v1/decisions", { cursor: page.next_cursor! }, { authorization: `Bearer ${beta}` });
    expect(misused.status).toBe(400);
    expect(((await misused.json()) as { error: { code: string } }).error.code).toBe("invalid_cursor");
    expect((await svc.get("/v1/decisions/not-a-ref")).status).toBe(400);
  });
});

describe("MCP service_decisions_record / _list / _get", () => {
  it("records, lists and fetches through the tools with the same records as HTTP", async () => {
    const client = await service.connect({ "x-svc-actor-id": "alice" });
    const rec = await callTool<DecisionRecord>(client, "service_decisions_record", {
      namespace: "mcp",
      title: "Expose decisions as tools",
      decision: "Agents record decisions over MCP.",
    });
    expect(
      await callTool<DecisionRecord>(client, "service_decisions_record", {
        namespace: "mcp",
        title: "Expose decisions as tools",
        decision: "Agents record decisions over MCP.",
      }),
    ).toEqual(rec);
    expect(await callTool<DecisionRecord>(client, "service_decisions_get", { ref: rec.ref })).toEqual(rec);
    const listed = await callTool<DecisionListResponse>(client, "service_decisions_list", { namespace: "mcp" });
    expect(listed.decisions).toEqual([rec]);
    expect(
      toolError(await client.callTool({ name: "service_decisions_get", arguments: { ref: `dec_${"f".repeat(20)}` } }))
        .code,
    ).toBe("not_found");
    expect(
      toolError(await client.callTool({ name: "service_decisions_record", arguments: { title: "No decision" } })).code,
    ).toBe("invalid_request");
  });
});
