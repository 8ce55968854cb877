// The /sdk/cognitive routes over HTTP: auth, per-workspace payloads, process -> trace round trip, and 4xx with stable codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { cognitiveRoutes, COGNITIVE_PREFIX } from "../../src/contract/cognitive.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let s: TestService;
beforeAll(async () => {
  s = await startTestService({ multiTenant: true, actors: ["alice"] });
  await s.post("/v1/memory/ingest", {
    source_path: "plan.md",
    content: "# Plan\n\n- [ ] TODO rotate the admin password\n\nThe admin password rotates monthly.\n",
  });
});
afterAll(async () => s.cleanup());

const json = async (res: Response) => ({
  status: res.status,
  body: (await res.json()) as Record<string, unknown> & { error?: { code: string; details?: unknown } },
});
const get = async (path: string, query: Record<string, string> = {}) =>
  json(await s.get(`/sdk/cognitive/${path}`, query, { "x-svc-actor-id": "alice" }));
const errorCode = (r: { body: { error?: { code: string } } }) => r.body.error?.code;

describe("GET /sdk/cognitive/*", () => {
  it("every route answers in its contract shape", async () => {
    for (const [name, row] of Object.entries(cognitiveRoutes)) {
      if (row.method !== "GET" || name === "cognitive_trace") continue;
      const r = await get(row.path.slice(COGNITIVE_PREFIX.length + 1).replace("{layer_id}", "viveka"));
      expect(r.status, name).toBe(200);
      expect(row.output.safeParse(r.body).success, name).toBe(true);
    }
  });

  it("lists the thirteen layers with job, switch and counters; one layer shows its params and learned state", async () => {
    const layers = (await get("layers")).body.layers as { id: string; enabled: boolean }[];
    expect(layers.map((l) => l.id)).toEqual([...LAYER_IDS]);
    expect(layers.find((l) => l.id === "dhyana")?.enabled).toBe(false);
    const karma = await get("layers/karma");
    expect(karma.body).toMatchObject({
      id: "karma",
      params: { weight: 0.5 },
      state: {},
      counter_names: ["chunks_boosted_feedback", "chunks_demoted_feedback"],
    });
  });

  it("scopes goals, karma and identity to the caller's workspace and actor", async () => {
    const goals = await get("goals");
    expect(goals.body).toMatchObject({ layer: "sankalpa", open_loops: [{ source_path: "plan.md", marker: "TODO" }] });
    const hash = (await s.runtime.store.documents.documentChunks(s.workspaceId, "plan.md"))[0]!.chunkHash;
    s.runtime.cognitive.karma.record(s.workspaceId, [hash, hash], false);
    expect((await get("karma")).body.ledger).toEqual({ chunks: 1, total: -2 });
    const other = await s.issueToken("other");
    const theirs = await json(await s.get("/sdk/cognitive/karma", {}, { authorization: `Bearer ${other.token}` }));
    expect(theirs.body.ledger).toEqual({ chunks: 0, total: 0 });
    expect((await get("identity")).body).toMatchObject({
      workspace_id: s.workspaceId,
      workspace_name: "default",
      actor_id: "alice",
    });
  });

  it("401 without a token, 404 for an unknown layer with the valid ids", async () => {
    const anon = await json(await s.get("/sdk/cognitive/layers", {}, { authorization: null }));
    expect([anon.status, errorCode(anon)]).toEqual([401, "unauthorized"]);
    const anonProcess = await json(await s.post("/sdk/cognitive/process", { query: "x" }, { authorization: null }));
    expect(anonProcess.status).toBe(401);
    const unknown = await get("layers/ego");
    expect([unknown.status, errorCode(unknown)]).toEqual([404, "not_found"]);
    expect(unknown.body.error?.details).toEqual({ valid_layer_ids: [...LAYER_IDS] });
  });

  it("state takes a limit of 1..200; bad or huge is 400", async () => {
    expect((await get("state", { limit: "5" })).status).toBe(200);
    for (const limit of ["0", "201", "1000000", "banana", "-1"]) {
      const r = await get("state", { limit });
      expect([r.status, errorCode(r)], limit).toEqual([400, "invalid_request"]);
    }
    expect(errorCode(await get("state", { limit: "5", extra: "1" }))).toBe("invalid_request");
  });
});

describe("POST /sdk/cognitive/process and GET traces/{id}", () => {
  it("returns trace_id and confidence, and the trace reads back in its workspace only", async () => {
    const r = await json(
      await s.post("/sdk/cognitive/process", { query: "how often does the admin password rotate?", k: 3 }),
    );
    expect(r.status).toBe(200);
    expect(cognitiveRoutes.cognitive_process.output.parse(r.body)).toMatchObject({
      trace_id: expect.stringMatching(/^trace_/),
      evidence: [{ source_path: "plan.md" }],
    });
    expect(typeof r.body.confidence).toBe("number");
    const back = await get(`traces/${String(r.body.trace_id)}`);
    expect(back.body).toEqual(r.body);
    const other = await s.issueToken("other");
    const theirs = await json(
      await s.get(`/sdk/cognitive/traces/${String(r.body.trace_id)}`, {}, { authorization: `Bearer ${other.token}` }),
    );
    expect([theirs.status, errorCode(theirs)]).toEqual([404, "not_found"]);
  });

  it("honours per-call layer switches", async () => {
    const r = await json(
      await s.post("/sdk/cognitive/process", { query: "admin password", layers: { viveka: false } }),
    );
    expect((r.body.steps as { layer: string; status: string }[]).find((st) => st.layer === "viveka")?.status).toBe(
      "off",
    );
  });

  it("unknown trace is 404 not_found", async () => {
    const r = await get("traces/trace_00000000-0000-0000-0000-000000000000");
    expect([r.status, errorCode(r)]).toEqual([404, "not_found"]);
  });

  it("bad or oversize input is a 4xx with a stable code", async () => {
    const cases: [unknown, number, string][] = [
      [{ query: "x".repeat(4001) }, 400, "invalid_request"],
      [{ query: "" }, 400, "invalid_request"],
      [{ query: "x", k: 0 }, 400, "invalid_request"],
      [{ query: "x", k: 51 }, 400, "invalid_request"],
      [{ query: "x", layers: { ego: true } }, 400, "invalid_request"],
      [{ query: "x", extra: 1 }, 400, "invalid_request"],
      ["{not json", 400, "malformed_json"],
      [JSON.stringify({ query: "x".repeat(9 * 1024 * 1024) }), 413, "payload_too_large"],
    ];
    for (const [body, status, code] of cases) {
      const r = await json(await s.post("/sdk/cognitive/process", body));
      expect([r.status, errorCode(r)], code).toEqual([status, code]);
    }
    const text = await json(await s.post("/sdk/cognitive/process", "query", { "content-type": "text/plain" }));
    expect(errorCode(text)).toBe("unsupported_media_type");
  });
});
