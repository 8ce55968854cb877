// GET /v1/audit/event_log: writes append attributed events to the workspace's own hash chain; paging, filters, isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditResponse, type AuditEvent } from "../../src/contract/audit.ts";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { IngestResponse } from "../../src/contract/memory.ts";
import { GENESIS_HASH } from "../../src/domain/audit/event-hash.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { audit, auditAll, auditQuery, json, manualClock, type ErrorEnvelope } from "./support.ts";

const MIN = 60_000;
const T0 = Date.parse("2025-03-01T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** prev_hash of each event is the hash of the one before; the first links to the genesis hash; seqs are 1..n. */
function expectChain(events: AuditEvent[]): void {
  for (const [i, e] of events.entries()) {
    expect(e.seq).toBe(i + 1);
    expect(e.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(e.prev_hash).toBe(i === 0 ? GENESIS_HASH : events[i - 1]!.hash);
  }
  expect(new Set(events.map((e) => e.hash)).size).toBe(events.length);
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
}

describe("the audit log of one workspace", () => {
  const clock = manualClock(T0);
  let svc: TestService;
  let robot: string;
  let all: AuditEvent[];
  let trajectoryId: string;

  const as = (actor: string | null, token?: string): Record<string, string | null> => ({
    "x-svc-actor-id": actor,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });

  beforeAll(async () => {
    svc = await startTestService({ actors: ["agent-1", "agent-2"], clock });
    robot = (await svc.issueToken("default", ["robot"])).token;
    const step = async (minutes: number, res: Promise<Response>, status = 200) => {
      clock.set(T0 + minutes * MIN);
      return json<unknown>(await res, status);
    };
    // Each write happens at its own minute, so since/until have something to cut.
    await step(
      0,
      svc.post(
        "/v1/memory/ingest",
        { source_path: "a.md", content: "# A\n\nThe Varenholm lighthouse was designed by Ingrid Solberg.\n" },
        as("agent-1"),
      ),
    );
    await step(
      1,
      svc.post(
        "/v1/memory/ingest",
        { source_path: "b.md", content: "# B\n\nThe bakery opened on Mill Street.\n" },
        as("agent-2"),
      ),
    );
    await step(
      2,
      svc.post(
        "/v1/memory/ingest",
        { source_path: "a.md", content: "# A\n\nThe Varenholm lighthouse was designed by Ingrid Solberg.\n" },
        as("agent-1"),
      ),
    );
    await step(3, svc.post("/v1/memory/forget", { source_path: "b.md" }, as("agent-2")));
    await step(4, svc.post("/v1/memory/forget", { source_path: "b.md" }, as("agent-2"))); // idempotent repeat: still an attributed event
    trajectoryId = (
      (await step(
        5,
        svc.post("/v1/grounded/answer", { question: "Who designed the Varenholm lighthouse?" }),
      )) as GroundedAnswerResponse
    ).trajectory_id;
    const c = (await step(
      6,
      svc.post(
        "/v1/memory/ingest",
        { source_path: "c.txt", content: "Tide tables are printed every spring.\n" },
        as("robot", robot),
      ),
    )) as IngestResponse;
    await step(7, svc.post("/v1/memory/forget", { chunk_hash: c.added[0]!.chunk_hash }, as("agent-1")));
    // Refused or failed writes leave no event.
    await step(8, svc.post("/v1/memory/ingest", { source_path: "d.md", content: "nope" }, as("robot")), 403);
    await step(8, svc.post("/v1/memory/ingest", { source_path: "d.md", content: "nope" }, as("intruder", robot)), 403);
    await step(8, svc.post("/v1/memory/forget", { source_path: "never-ingested.md" }, as("agent-1")), 404);
    all = (await audit(svc, { limit: 1000, order: "oldest" })).events;
  });
  afterAll(async () => svc.cleanup());

  it("records ingest and forget with the actor from x-svc-actor-id, the time, and what changed", async () => {
    const summary = all.map((e) => [e.seq, e.type, e.actor_id, e.at]);
    expect(summary).toEqual([
      [1, "memory.ingest", "agent-1", iso(T0)],
      [2, "memory.ingest", "agent-2", iso(T0 + MIN)],
      [3, "memory.ingest", "agent-1", iso(T0 + 2 * MIN)],
      [4, "memory.forget", "agent-2", iso(T0 + 3 * MIN)],
      [5, "memory.forget", "agent-2", iso(T0 + 4 * MIN)],
      ...[
        "grounded.request",
        "grounded.step.retrieve",
        "grounded.step.score_candidates",
        "grounded.step.select",
        "grounded.step.answer",
        "grounded.outcome",
      ].map((type, i) => [6 + i, type, null, iso(T0 + 5 * MIN)]),
      [12, "memory.ingest", "robot", iso(T0 + 6 * MIN)],
      [13, "memory.forget", "agent-1", iso(T0 + 7 * MIN)],
    ]);
    expect(all[0]!.payload).toMatchObject({ source_path: "a.md", unchanged: false, chunks: 1, added: 1 });
    // The question's asking time defaulted to its arrival and is recorded, so a replay reads "last week" alike.
    expect(all[5]!.payload).toMatchObject({ request: { asked_at: iso(T0 + 5 * MIN) } });
    expect(all[2]!.payload).toMatchObject({ source_path: "a.md", unchanged: true, added: 0 });
    expect(all[3]!.payload).toMatchObject({
      source_path: "b.md",
      chunk_hash: null,
      removed: [{ source_path: "b.md" }],
    });
    expect(all[4]!.payload).toMatchObject({ source_path: "b.md", removed: [] });
    expect(all[12]!.payload).toMatchObject({
      source_path: null,
      chunk_hash: expect.stringMatching(/^sha256:/) as unknown,
      removed: [{ source_path: "c.txt" }],
    });
    for (const e of all) expect(e.trajectory_id).toBe(e.type.startsWith("grounded.") ? trajectoryId : null);
    AuditResponse.parse({ events: all, next_cursor: null });
  });

  it("chains every event to its predecessor: prev_hash of event n is the hash of event n-1", () => {
    expectChain(all);
  });

  it.each(
    [1, 2, 3, 5, 12, 13, 14, 1000].flatMap(
      (limit) =>
        [
          [limit, "newest"],
          [limit, "oldest"],
        ] as const,
    ),
  )("pages with limit %i, %s first, visit every event exactly once, in order", async (limit, order) => {
    const pages: AuditResponse[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditResponse = await audit(svc, { limit, order, ...(cursor ? { cursor } : {}) });
      expect(page.events.length).toBeLessThanOrEqual(limit);
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor && pages.length < 100);
    expect(cursor).toBeNull();
    expect(pages.flatMap((p) => p.events)).toEqual(order === "oldest" ? all : [...all].reverse());
    expect(pages.length).toBe(Math.ceil(all.length / limit) || 1);
  });

  it("tails by default: the newest events first, and a cursor walks back in time", async () => {
    const newest = await audit(svc, { limit: 2 });
    expect(newest.events.map((e) => e.seq)).toEqual([13, 12]);
    const older = await audit(svc, { limit: 2, cursor: newest.next_cursor! });
    expect(older.events.map((e) => e.seq)).toEqual([11, 10]);
    expect((await auditAll(svc, { type: "memory.forget", limit: 1 })).map((e) => e.seq)).toEqual([13, 5, 4]);
    // The cursor remembers its walk: without order it goes on the same way; with the other order it is refused.
    const forward = await audit(svc, { limit: 2, order: "oldest" });
    expect((await audit(svc, { limit: 2, cursor: forward.next_cursor! })).events.map((e) => e.seq)).toEqual([3, 4]);
    expect(
      (await json<ErrorEnvelope>(auditQuery(svc, { cursor: forward.next_cursor!, order: "newest" }), 400)).error.code,
    ).toBe("invalid_cursor");
    expect(
      (await audit(svc, { limit: 2, cursor: newest.next_cursor!, order: "newest" })).events.map((e) => e.seq),
    ).toEqual([11, 10]);
    // A replay reads in the order the answer ran, unless asked otherwise.
    expect((await auditAll(svc, { trajectory_id: trajectoryId, limit: 2 })).map((e) => e.seq)).toEqual([
      6, 7, 8, 9, 10, 11,
    ]);
    expect((await auditAll(svc, { trajectory_id: trajectoryId, order: "newest" })).map((e) => e.seq)).toEqual([
      11, 10, 9, 8, 7, 6,
    ]);
  });

  it("a later read sees events appended since, chained onto the previous tail", async () => {
    // A fresh service, so the shared log of the other tests stays fixed.
    const s2 = await startTestService();
    try {
      await json(s2.post("/v1/memory/ingest", { source_path: "x.md", content: "one" }), 200);
      const first = await audit(s2, { limit: 1 });
      expect(first.events.map((e) => e.seq)).toEqual([1]);
      expect(first.next_cursor).toBeNull();
      const tail = first.events[0]!;
      await json(s2.post("/v1/memory/ingest", { source_path: "y.md", content: "two" }), 200);
      // The tail starts at the new event, which links to the old one; the cursor leads on to it.
      const again = await audit(s2, { limit: 1 });
      expect(again.events.map((e) => e.seq)).toEqual([2]);
      expect(again.events[0]!.prev_hash).toBe(tail.hash);
      expect((await audit(s2, { limit: 1, cursor: again.next_cursor! })).events).toEqual([tail]);
    } finally {
      await s2.cleanup();
    }
  });

  it("filters by type (one or a comma list), by actor, by time, and combinations, also across pages", async () => {
    const seqs = async (params: Record<string, string | number>) =>
      (await auditAll(svc, { ...params, order: "oldest" })).map((e) => e.seq);
    expect(await seqs({ type: "memory.forget" })).toEqual([4, 5, 13]);
    expect(await seqs({ type: "memory.forget", limit: 1 })).toEqual([4, 5, 13]);
    expect(await seqs({ type: "memory.ingest, memory.forget" })).toEqual([1, 2, 3, 4, 5, 12, 13]);
    expect(await seqs({ type: "grounded.outcome" })).toEqual([11]);
    expect(await seqs({ actor: "agent-2" })).toEqual([2, 4, 5]);
    expect(await seqs({ actor: "robot" })).toEqual([12]);
    expect(await seqs({ actor: "agent-1", type: "memory.forget" })).toEqual([13]);
    expect(await seqs({ actor: "nobody" })).toEqual([]);
    expect(await seqs({ type: "no.such.type" })).toEqual([]);
    // since is inclusive, until exclusive.
    expect(await seqs({ since: iso(T0 + 3 * MIN) })).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(await seqs({ until: iso(T0 + 3 * MIN) })).toEqual([1, 2, 3]);
    expect(await seqs({ since: iso(T0 + MIN), until: iso(T0 + 4 * MIN), limit: 2 })).toEqual([2, 3, 4]);
    expect(await seqs({ since: "2025-03-01T13:03:00+01:00", until: "2025-03-01T12:04:00Z" })).toEqual([4]); // offsets are honoured
    expect(
      await seqs({ since: iso(T0 + 5 * MIN), type: "grounded.step.retrieve,grounded.step.answer", limit: 1 }),
    ).toEqual([7, 10]);
  });

  it("rejects bad query parameters with 400 invalid_request", async () => {
    for (const params of [
      { limit: 0 },
      { limit: 1001 },
      { limit: "many" },
      { since: "yesterday" },
      { until: "2025-03-01" },
      { order: "sideways" },
      { bogus: "1" },
    ]) {
      const res = await json<ErrorEnvelope>(auditQuery(svc, params), 400);
      expect(res.error.code, JSON.stringify(params)).toBe("invalid_request");
    }
  });

  it("rejects garbage cursors with 400 invalid_cursor (never a 500)", async () => {
    const b64 = (v: string) => Buffer.from(v).toString("base64url");
    for (const cursor of [
      "%%%",
      "not-a-cursor",
      b64("null"),
      b64("42"),
      b64('"s"'),
      b64("[]"),
      b64("{}"),
      b64('{"w":"x","s":-1}'),
      b64('{"s":1.5}'),
    ]) {
      const res = await json<ErrorEnvelope>(auditQuery(svc, { cursor }), 400);
      expect(res.error.code, cursor).toBe("invalid_cursor");
    }
  });

  it("requires a token", async () => {
    const res = await svc.app.request("/v1/audit/event_log");
    expect((await json<ErrorEnvelope>(res, 401)).error.code).toBe("unauthorized");
  });
});

describe("the audit log across workspaces (multi-tenant)", () => {
  let svc: TestService;
  let other: string;
  let trajectoryA: string;
  beforeAll(async () => {
    svc = await startTestService({ multiTenant: true });
    other = (await svc.issueToken("acme")).token;
    const asOther = { authorization: `Bearer ${other}` };
    for (let i = 0; i < 3; i++)
      await json(
        svc.post("/v1/memory/ingest", {
          source_path: `a/${i}.md`,
          content: `# A${i}\n\nThe Varenholm lighthouse has ${i + 2} lamps.\n`,
        }),
        200,
      );
    trajectoryA = (
      await json<GroundedAnswerResponse>(
        svc.post("/v1/grounded/answer", { question: "How many lamps does the Varenholm lighthouse have?" }),
        200,
      )
    ).trajectory_id;
    for (let i = 0; i < 2; i++)
      await json(
        svc.post(
          "/v1/memory/ingest",
          { source_path: `b/${i}.md`, content: `# B${i}\n\nAcme ships ${i + 1} widgets.\n` },
          asOther,
        ),
        200,
      );
  });
  afterAll(async () => svc.cleanup());

  it("gives each workspace its own chain starting at seq 1, and never shows one workspace's events to another", async () => {
    const a = await auditAll(svc, { order: "oldest" });
    const b = await auditAll(svc, { order: "oldest" }, other);
    expectChain(a);
    expectChain(b);
    expect(a.map((e) => e.type).filter((t) => t === "memory.ingest")).toHaveLength(3);
    expect(b.map((e) => e.type)).toEqual(["memory.ingest", "memory.ingest"]);
    expect(b.map((e) => (e.payload as { source_path: string }).source_path)).toEqual(["b/0.md", "b/1.md"]);
    expect(a.some((e) => JSON.stringify(e.payload).includes("b/"))).toBe(false);
    const ids = new Set(a.map((e) => e.id));
    expect(b.some((e) => ids.has(e.id))).toBe(false);
    // Filters cannot reach across either.
    expect(await auditAll(svc, { type: "grounded.request" }, other)).toEqual([]);
  });

  it("refuses a cursor issued to another workspace with 400 invalid_cursor", async () => {
    const pageA = await audit(svc, { limit: 1 });
    expect(pageA.next_cursor).not.toBeNull();
    const res = await json<ErrorEnvelope>(auditQuery(svc, { cursor: pageA.next_cursor! }, other), 400);
    expect(res.error.code).toBe("invalid_cursor");
    expect(res.error.message).toMatch(/another workspace/);
    // The owner can use it, and the other workspace's own cursors work for it.
    expect((await audit(svc, { cursor: pageA.next_cursor!, limit: 1 })).events[0]!.seq).toBe(pageA.events[0]!.seq - 1);
    const pageB = await audit(svc, { limit: 1 }, other);
    expect((await audit(svc, { cursor: pageB.next_cursor!, limit: 1 }, other)).events[0]!.seq).toBe(1); // workspace b holds two events: its tail is 2, then 1
    expect((await json<ErrorEnvelope>(auditQuery(svc, { cursor: pageB.next_cursor! }), 400)).error.code).toBe(
      "invalid_cursor",
    );
  });

  it("hides a trajectory from other workspaces: 404 there, the full run here", async () => {
    const res = await json<ErrorEnvelope>(auditQuery(svc, { trajectory_id: trajectoryA }, other), 404);
    expect(res.error.code).toBe("not_found");
    expect(JSON.stringify(res)).not.toContain("lighthouse");
    const mine = await audit(svc, { trajectory_id: trajectoryA });
    expect(mine.events.map((e) => e.type)[0]).toBe("grounded.request");
    expect(mine.events.at(-1)!.type).toBe("grounded.outcome");
  });
});
