// Facts that change (issue 45 item 4): a decision or capture that supersedes an earlier one, over HTTP and MCP; recall
// prefers what is current, marks what it replaced, and as_of gives what was current then.
import { beforeAll, describe, expect, it } from "vitest";
import type { Citation } from "../../src/contract/citation.ts";
import type { DecisionListResponse, DecisionRecord } from "../../src/contract/decisions.ts";
import type { ShravanRecord } from "../../src/contract/assimilation.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";
import type { TestService } from "../helpers/runtime.ts";
import { manualClock } from "../grounded/support.ts";

const DAY = 86_400_000;
const T0 = Date.parse("2025-03-01T12:00:00.000Z");
const clock = manualClock(T0);
const service = useMcpService({ multiTenant: true, clock });
let svc: TestService;
beforeAll(() => {
  svc = service.svc;
});

type Answer<T> = { status: number; body: T & { error?: { code: string } } };
const post = async <T>(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer<T>> => {
  const res = await svc.post(path, body, headers);
  return { status: res.status, body: (await res.json()) as T & { error?: { code: string } } };
};
const decide = (decision: string, supersedes?: string, headers?: Record<string, string>) =>
  post<DecisionRecord>(
    "/v1/decisions",
    { namespace: "ledger", title: "Database for the ledger", decision, ...(supersedes ? { supersedes } : {}) },
    headers,
  );
const recall = async (asOf?: number) =>
  (
    await post<{ hits: Citation[] }>("/v1/memory/recall", {
      query: "which database does the ledger use",
      k: 5,
      filters: { source_path_prefix: "decisions/ledger/", ...(asOf ? { as_of: new Date(asOf).toISOString() } : {}) },
    })
  ).body.hits;
/** The first hit of each note, in rank order. */
const notes = (hits: Citation[]) => hits.filter((h, i) => hits.findIndex((x) => x.source_path === h.source_path) === i);

describe("a chain of decisions: A superseded by B superseded by C", () => {
  let a: DecisionRecord, b: DecisionRecord, c: DecisionRecord;
  beforeAll(async () => {
    clock.set(T0);
    a = (await decide("The ledger uses MySQL.")).body;
    clock.set(T0 + DAY);
    b = (await decide("The ledger uses PostgreSQL.", a.ref)).body;
    clock.set(T0 + 2 * DAY);
    c = (await decide("The ledger uses CockroachDB.", b.ref)).body;
  });

  it("keeps every decision and links each to the next, with the time it stopped being current", async () => {
    const get = async (ref: string) => ((await (await svc.get(`/v1/decisions/${ref}`)).json()) as DecisionRecord)!;
    expect(await get(a.ref)).toMatchObject({
      supersedes: null,
      superseded_by: b.ref,
      superseded_at: new Date(T0 + DAY).toISOString(),
    });
    expect(await get(b.ref)).toMatchObject({
      supersedes: a.ref,
      superseded_by: c.ref,
      superseded_at: new Date(T0 + 2 * DAY).toISOString(),
    });
    expect(await get(c.ref)).toMatchObject({ supersedes: b.ref, superseded_by: null, superseded_at: null });
    const listed = ((await (await svc.get("/v1/decisions", { namespace: "ledger" })).json()) as DecisionListResponse)
      .decisions;
    expect(listed.map((d) => [d.ref, d.superseded_by])).toEqual([
      [c.ref, null],
      [b.ref, c.ref],
      [a.ref, b.ref],
    ]);
  });

  it("recall ranks the current decision first and marks what replaced what", async () => {
    const [first, ...rest] = notes(await recall());
    expect(first).toMatchObject({
      source_path: c.source_path,
      supersedes: { record_id: b.ref, source_path: b.source_path, detected: false },
    });
    expect(first!.superseded_by).toBeUndefined();
    expect(rest.map((h) => [h.source_path, h.superseded_by?.record_id])).toEqual(
      expect.arrayContaining([
        [b.source_path, c.ref],
        [a.source_path, b.ref],
      ]),
    );
    expect(rest.find((h) => h.source_path === a.source_path)!.superseded_by!.at).toBe(new Date(T0 + DAY).toISOString());
  });

  it("as_of gives what was current at each point of the chain", async () => {
    const at = async (t: number) =>
      notes(await recall(t)).map((h) => [h.source_path, h.superseded_by?.record_id ?? null]);
    expect(await at(T0 + DAY / 2)).toEqual([[a.source_path, null]]);
    expect(await at(T0 + DAY + DAY / 2)).toEqual([
      [b.source_path, null],
      [a.source_path, b.ref],
    ]);
    expect((await at(T0 + 3 * DAY))[0]).toEqual([c.source_path, null]);
  });

  it("lowers a replaced note before calibration, so its replacement is scored as the best candidate it now is", async () => {
    const billing = (decision: string, supersedes?: string) =>
      post<DecisionRecord>("/v1/decisions", {
        namespace: "billing",
        title: "Billing store",
        decision,
        ...(supersedes ? { supersedes } : {}),
      });
    clock.set(T0);
    const old = (await billing("The billing database for invoices is MySQL: every invoice of billing lives there."))
      .body;
    clock.set(T0 + DAY);
    const now = (await billing("Invoices moved to PostgreSQL.", old.ref)).body;
    const { hits, explain } = (
      await post<{ hits: Citation[]; explain: { contributions: Record<string, number> }[] }>("/v1/memory/recall", {
        query: "billing database for invoices",
        k: 5,
        explain: true,
        filters: { source_path_prefix: "decisions/billing/" },
      })
    ).body;
    const at = (path: string) => hits.findIndex((h) => h.source_path === path);
    expect(at(now.source_path)).toBe(0);
    expect(explain[0]!.contributions["rank"]).toBe(0);
    expect(explain[at(old.source_path)]!.contributions).toMatchObject({ superseded: -2 });
  });

  it("refuses to supersede an unknown, foreign or already superseded decision, and writes nothing", async () => {
    const other = await svc.issueToken("elsewhere");
    const foreign = (await decide("The ledger uses SQLite.", undefined, { authorization: `Bearer ${other.token}` }))
      .body;
    const count = async () =>
      (
        (await (await svc.get("/v1/audit/event_log", { type: "decision.recorded", limit: "1000" })).json()) as {
          events: unknown[];
        }
      ).events.length;
    const before = await count();
    const unknown = await decide("The ledger uses Oracle.", "dec_00000000000000000000");
    expect([unknown.status, unknown.body.error?.code]).toEqual([422, "supersedes_not_found"]);
    const elsewhere = await decide("The ledger uses Oracle.", foreign.ref);
    expect([elsewhere.status, elsewhere.body.error?.code]).toEqual([422, "supersedes_not_found"]);
    // Sending B again is the same request: the same record, not a second supersession of A.
    const repeated = await decide("The ledger uses PostgreSQL.", a.ref);
    expect([repeated.status, repeated.body.ref, repeated.body.supersedes]).toEqual([200, b.ref, a.ref]);
    const twice = await decide("The ledger uses Oracle.", a.ref);
    expect([twice.status, twice.body.error?.code]).toEqual([409, "already_superseded"]);
    const malformed = await decide("The ledger uses Oracle.", "dec_nothex");
    expect([malformed.status, malformed.body.error?.code]).toEqual([400, "invalid_request"]);
    expect(await count()).toBe(before);
    const listed = ((await (await svc.get("/v1/decisions", { namespace: "ledger" })).json()) as DecisionListResponse)
      .decisions;
    expect(listed.map((d) => d.decision)).not.toContain("The ledger uses Oracle.");
    expect(await svc.runtime.store.records.getRecord(svc.workspaceId, a.ref)).toMatchObject({
      body: { superseded_by: b.ref },
    });
  });
});

describe("supersession over MCP and for captures", () => {
  it("service_decisions_record takes supersedes and answers a bad one with its code", async () => {
    const client = await service.connect();
    const args = { namespace: "queue", title: "Queue for jobs", decision: "Jobs go through Redis lists." };
    const first = await callTool<DecisionRecord>(client, "service_decisions_record", args);
    const second = await callTool<DecisionRecord>(client, "service_decisions_record", {
      ...args,
      decision: "Jobs go through PostgreSQL with SKIP LOCKED.",
      supersedes: first.ref,
    });
    expect(second.supersedes).toBe(first.ref);
    const again = await client.callTool({
      name: "service_decisions_record",
      arguments: { ...args, decision: "Jobs go through SQS.", supersedes: first.ref },
    });
    expect(again.isError).toBe(true);
    expect(toolError(again).code).toBe("already_superseded");
  });

  it("a capture that supersedes an earlier one marks its note in recall", async () => {
    const capture = (content: string, supersedes?: string) =>
      post<ShravanRecord>("/v1/memory/assimilation/shravan", {
        content,
        source_type: "documentation",
        source_title: "Release policy",
        authority: "official",
        trust_score: 0.9,
        relevance_score: 0.8,
        ...(supersedes ? { supersedes } : {}),
      });
    const old = (await capture("Releases are cut every second Tuesday of the month.")).body;
    const current = await capture("Releases are cut every Tuesday of every week.", old.id);
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ supersedes: old.id, superseded_by: null });
    const hits = notes(
      (
        await post<{ hits: Citation[] }>("/v1/memory/recall", {
          query: "when are releases cut",
          filters: { source_path_prefix: "knowledge/shravan/" },
        })
      ).body.hits,
    );
    expect(hits.map((h) => [h.source_path, h.superseded_by?.record_id ?? null])).toEqual([
      [current.body.source_path, null],
      [old.source_path, current.body.id],
    ]);
    const wrongKind = await capture("Releases are cut daily.", "shravan_0123abcd");
    expect([wrongKind.status, wrongKind.body.error?.code]).toEqual([422, "supersedes_not_found"]);
  });
});
