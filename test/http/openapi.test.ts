// The OpenAPI document is the machine-readable contract: every operation is in it, and real traffic validates against it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { COGNITIVE_PREFIX, cognitiveRoutes } from "../../src/contract/cognitive.ts";
import { operations, type OperationId } from "../../src/contract/operations.ts";
import { fillPath, pathParameters, routes } from "../../src/contract/routes.ts";
import { createAjv2020, type Ajv2020Like } from "../helpers/ajv.ts";
import { recordAblation, recordStress } from "../../src/cognitive/records.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

interface OperationDoc {
  operationId: string;
  "x-mcp-tool"?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: { "application/json": { schema: object } } };
  responses: Record<string, { content?: { "application/json"?: { schema: object } } }>;
}
type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OperationDoc>>;
};

let svc: TestService;
let doc: Doc;
let ajv: Ajv2020Like;

const SEED =
  "# Launch\n\nThe launch date is March 3, 2024. Mission control sits in Bangalore.\n\n# Crew\n\nThe crew has four members and trains in Houston.\n";

beforeAll(async () => {
  svc = await startTestService();
  ajv = createAjv2020();
  const res = await svc.app.request("/v1/openapi.json");
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});
afterAll(async () => svc.cleanup());

const entry = (id: OperationId): OperationDoc => doc.paths[operations[id].path]![operations[id].method.toLowerCase()]!;
const responseSchema = (id: OperationId, status: string): object => {
  const schema = entry(id).responses[status]?.content?.["application/json"]?.schema;
  expect(schema, `${id} ${status} schema`).toBeDefined();
  return schema!;
};

function expectValid(schema: object, data: unknown, label: string): void {
  const validate = ajv.compile(schema);
  const ok = validate(data);
  expect(ok, `${label}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

function expectInvalid(schema: object, data: unknown, label: string): void {
  expect(ajv.compile(schema)(data), `${label} should be rejected`).toBe(false);
}

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document, readable without a token", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe("1.1.0-draft"); // the contract's version (SPEC Versioning 4-5), not the package's
    expect((doc.info as Record<string, unknown>)["x-service-version"]).toBe(svc.runtime.version);
    const anonymous = await svc.get("/v1/openapi.json", {}, { authorization: null });
    expect(anonymous.status).toBe(200);
  });

  it("names every row of the route table: the operations, the answer stream, the inspection routes and the service's own", () => {
    for (const row of Object.values(routes))
      expect(doc.paths[row.path]?.[row.method.toLowerCase()], `${row.method} ${row.path}`).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/healthz", "/metrics", "/mcp", "/v1/openapi.json", "/v1/grounded/answer/stream"]),
    );
    expect(doc.paths["/v1/grounded/answer/stream"]!["post"]!.parameters?.some((p) => p.name === "Last-Event-ID")).toBe(
      true,
    );
    expect(doc.paths["/v1/grounded/answer/stream"]!["post"]!.responses["404"]).toBeDefined();
  });

  it("lists every operation of the table at its path and method, with id and tool name", () => {
    for (const [id, op] of Object.entries(operations) as [OperationId, (typeof operations)[OperationId]][]) {
      const e = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(e, `${op.method} ${op.path}`).toBeDefined();
      expect(e!.operationId).toBe(id);
      expect(e!["x-mcp-tool"]).toBe(op.tool);
      expect(e!.responses["200"]).toBeDefined();
      for (const status of ["400", "401", "403", "404", "413", "415", "422", "500"])
        expect(e!.responses[status], `${id} ${status}`).toBeDefined();
      if (op.method === "POST") expect(e!.requestBody?.content["application/json"].schema).toBeDefined();
    }
  });

  it("describes GET inputs as path and query parameters, one per input field", () => {
    for (const id of Object.keys(operations) as OperationId[]) {
      const op = operations[id];
      if (op.method !== "GET") continue;
      const fields = Object.keys(
        (z.toJSONSchema(op.input, { io: "input", unrepresentable: "any" }) as { properties: object }).properties,
      );
      const inPath = pathParameters(op.path);
      const params = entry(id).parameters ?? [];
      expect(params.filter((p) => p.in === "path").map((p) => [p.name, p.required])).toEqual(
        inPath.map((name) => [name, true]),
      );
      expect(
        params
          .filter((p) => p.in === "query")
          .map((p) => p.name)
          .sort(),
      ).toEqual(fields.filter((f) => !inPath.includes(f)).sort());
    }
    expect(pathParameters(operations.decision_get.path)).toEqual(["ref"]);
  });
});

describe("request schemas", () => {
  const cases: { [K in OperationId]?: { valid: unknown[]; invalid: unknown[] } } = {
    recall: {
      valid: [
        { query: "launch" },
        {
          query: "launch",
          k: 5,
          mode: "lexical",
          explain: true,
          filters: { source_path_prefix: "n/", since: "2024-01-01T00:00:00Z", min_score: 0.2 },
        },
      ],
      invalid: [
        {},
        { query: 5 },
        { query: "x", k: 0 },
        { query: "x", extra: 1 },
        { query: "x", mode: "psychic" },
        { query: "x", filters: { min_score: 2 } },
      ],
    },
    ingest: {
      valid: [
        { content: "hello" },
        { content: "hello", source_path: "a.md", kind: "markdown", timestamp: "2024-05-01T10:00:00+02:00" },
      ],
      invalid: [{}, { content: "" }, { content: 1 }, { content: "x", kind: "pdf" }, { content: "x", surprise: true }],
    },
    forget: {
      valid: [{ source_path: "a.md" }, { chunk_hash: `sha256:${"a".repeat(64)}` }],
      invalid: [{ chunk_hash: "sha256:zz" }, { source_path: "" }, { source_path: "a.md", other: 1 }],
    },
    pack: {
      valid: [{ intent: "launch" }, { intent: "launch", budget_tokens: 500, max_items: 5, diversity: 0.5 }],
      invalid: [{}, { intent: "x", budget_tokens: 10 }, { intent: "x", diversity: 2 }, { intent: "x", max_items: 1.5 }],
    },
    grounded_answer: {
      valid: [{ question: "When?" }, { question: "When?", k: 3, min_confidence: 0.4 }],
      invalid: [{}, { question: 2 }, { question: "When?", k: 51 }, { question: "When?", bonus: 1 }],
    },
    grounded_eval: {
      valid: [
        { output: "It launched.", nuggets: [{ text: "launch" }] },
        {
          output: "x",
          nuggets: [{ text: "y", importance: "okay" }],
          citations: [{ chunk_hash: `sha256:${"b".repeat(64)}`, text_span: "y" }],
        },
      ],
      invalid: [
        { output: "x", nuggets: [] },
        { output: "x", nuggets: [{ text: "y", importance: "critical" }] },
        { output: "x" },
      ],
    },
    feedback: {
      valid: [
        { chunk_hashes: [`sha256:${"a".repeat(64)}`], outcome: "used" },
        { chunk_hashes: [`sha256:${"b".repeat(64)}`], outcome: "unhelpful", trajectory_id: "traj_1" },
      ],
      invalid: [
        { chunk_hashes: [], outcome: "used" },
        { chunk_hashes: ["x"], outcome: "used" },
        { chunk_hashes: [`sha256:${"a".repeat(64)}`], outcome: "loved" },
      ],
    },
    shravan: {
      valid: [
        {
          content: "c",
          source_type: "paper",
          source_title: "t",
          authority: "primary",
          trust_score: 0,
          relevance_score: 1,
        },
        {
          content: "c",
          source_type: "web",
          source_title: "t",
          authority: "unknown",
          trust_score: 0.5,
          relevance_score: 0.5,
          lineage: { origin: "https://example.org", parent_ids: [`shravan_${"a".repeat(20)}`] },
          questions: ["why?"],
          citation: { url: "https://example.org/p", locator: "p. 3", quote: "q" },
        },
      ],
      invalid: [
        {
          content: "c",
          source_type: "rumour",
          source_title: "t",
          authority: "primary",
          trust_score: 0,
          relevance_score: 1,
        },
        {
          content: "c",
          source_type: "paper",
          source_title: "t",
          authority: "primary",
          trust_score: 1.5,
          relevance_score: 1,
        },
        {
          content: "",
          source_type: "paper",
          source_title: "t",
          authority: "primary",
          trust_score: 0,
          relevance_score: 1,
        },
        { content: "c", source_type: "paper", source_title: "t", authority: "god", trust_score: 0, relevance_score: 1 },
        { content: "c", source_type: "paper", source_title: "t", authority: "primary", trust_score: 0 },
      ],
    },
    manan: {
      valid: [{ shravan_id: `shravan_${"b".repeat(20)}` }],
      invalid: [
        {},
        { shravan_id: "" },
        { shravan_id: "Shravan 1" },
        { shravan_id: `shravan_${"b".repeat(20)}`, deep: true },
      ],
    },
    nididhyasan: {
      valid: [
        { manan_id: `manan_${"c".repeat(20)}`, implementation_type: "habit" },
        { manan_id: `manan_${"c".repeat(20)}`, implementation_type: "project", propose_memory: true },
      ],
      invalid: [
        { manan_id: `manan_${"c".repeat(20)}` },
        { manan_id: `manan_${"c".repeat(20)}`, implementation_type: "poem" },
        { manan_id: `manan_${"c".repeat(20)}`, implementation_type: "task", propose_memory: "yes" },
      ],
    },
    proposal_review: {
      valid: [
        { proposal_id: `proposal_${"d".repeat(20)}`, verdict: "approve" },
        { proposal_id: `proposal_${"d".repeat(20)}`, verdict: "reject", note: "duplicate" },
      ],
      invalid: [
        { proposal_id: `proposal_${"d".repeat(20)}` },
        { proposal_id: `proposal_${"d".repeat(20)}`, verdict: "maybe" },
        { verdict: "approve" },
      ],
    },
    decision_record: {
      valid: [
        { title: "Use SQLite", decision: "Store it all in SQLite." },
        {
          namespace: "platform/storage",
          title: "T",
          decision: "D",
          status: "Proposed",
          date: "2024-02-29",
          options: ["a", "b"],
          evidence: [`sha256:${"c".repeat(64)}`],
        },
      ],
      invalid: [
        { title: "T" },
        { title: "", decision: "D" },
        { title: "T", decision: "D", namespace: "Has Spaces" },
        { title: "T", decision: "D", date: "yesterday" },
        { title: "T", decision: "D", evidence: ["x"] },
        { title: "T", decision: "D", extra: 1 },
      ],
    },
    decision_extract: {
      valid: [
        { content: "Decision: use SQLite" },
        { content: "# ADR\n\n## Decision\n\nUse SQLite.", source_path: "adr/1.md" },
      ],
      invalid: [
        {},
        { content: "" },
        { content: "  " },
        { content: 1 },
        { content: "x", source_path: "" },
        { content: "x", extra: 1 },
      ],
    },
    meeting_extract: {
      valid: [
        { transcript: "Alice: We decided to ship.\nBob: OK." },
        {
          transcript: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>Hi.",
          source_path: "m/1.vtt",
          meeting_date: "2024-05-01",
        },
      ],
      invalid: [
        {},
        { transcript: "" },
        { transcript: " \n" },
        { transcript: 1 },
        { transcript: "x", meeting_date: "May 1" },
        { transcript: "x", meeting_date: "2024-02-30" },
        { transcript: "x", content: "y" },
      ],
    },
  };

  it("has a case for every POST operation", () => {
    const posts = (Object.keys(operations) as OperationId[]).filter((id) => operations[id].method === "POST");
    expect(Object.keys(cases).sort()).toEqual(posts.sort());
  });

  for (const [id, c] of Object.entries(cases) as [OperationId, { valid: unknown[]; invalid: unknown[] }][]) {
    it(`${id}: valid samples pass and invalid ones fail, agreeing with the zod schema`, () => {
      const schema = entry(id).requestBody!.content["application/json"].schema;
      for (const v of c.valid) {
        expectValid(schema, v, `${id} ${JSON.stringify(v)}`);
        expect(operations[id].input.safeParse(v).success).toBe(true);
      }
      for (const v of c.invalid) {
        expectInvalid(schema, v, `${id} ${JSON.stringify(v)}`);
        expect(operations[id].input.safeParse(v).success).toBe(false);
      }
    });
  }
});

describe("real responses validate against the documented schemas", () => {
  const seen = new Set<OperationId>();
  afterAll(() => {
    // Every operation's 200 schema was exercised by a real response.
    expect([...seen].sort()).toEqual((Object.keys(operations) as OperationId[]).sort());
  });

  async function check(id: OperationId, res: Response, status = 200): Promise<Record<string, unknown>> {
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(status);
    expectValid(responseSchema(id, String(status)), body, `${id} ${status}`);
    if (status === 200) seen.add(id);
    return body;
  }

  it("ingest, recall (with explain), pack, grounded answer and eval, audit, open loops, decision and meeting extraction, forget", async () => {
    const ingested = await check(
      "ingest",
      await svc.post("/v1/memory/ingest", {
        source_path: "mission.md",
        content: SEED,
        timestamp: "2024-01-02T03:04:05Z",
      }),
    );
    await check(
      "ingest",
      await svc.post("/v1/memory/ingest", {
        source_path: "mission.md",
        content: SEED,
        timestamp: "2024-01-02T03:04:05Z",
      }),
    );
    const recall = await check(
      "recall",
      await svc.post("/v1/memory/recall", { query: "launch date mission control", explain: true }),
    );
    expect((recall.hits as unknown[]).length).toBeGreaterThan(0);
    expect(recall.explain).toBeDefined();
    await check("recall", await svc.post("/v1/memory/recall", { query: "nothing matches zebra" }));
    const pack = await check(
      "pack",
      await svc.post("/v1/memory/pack", { intent: "crew training", budget_tokens: 200 }),
    );
    expect((pack.items as unknown[]).length).toBeGreaterThan(0);
    const answer = await check(
      "grounded_answer",
      await svc.post("/v1/grounded/answer", { question: "When is the launch date?", min_confidence: 0 }),
    );
    const hash = (ingested.added as { chunk_hash: string }[])[0]!.chunk_hash;
    await check(
      "grounded_eval",
      await svc.post("/v1/grounded/eval", {
        output: "The launch date is March 3, 2024.",
        nuggets: [{ text: "launch date March 3 2024" }, { text: "crew of four", importance: "okay" }],
        citations: [{ chunk_hash: hash, text_span: "The launch date is March 3, 2024." }],
      }),
    );
    const audit = await check("audit", await svc.get("/v1/audit/event_log", { limit: "50" }));
    expect((audit.events as unknown[]).length).toBeGreaterThan(0);
    await check("audit", await svc.get("/v1/audit/event_log", { trajectory_id: answer.trajectory_id as string }));
    const loops = await check("open_loops", await svc.get("/v1/open_loops", { limit: "10" }));
    expect(loops.truncated).toBe(false);
    const extracted = await check(
      "decision_extract",
      await svc.post("/v1/decisions/extract", {
        content: "# ADR\n\n## Status\n\nAccepted\n\n## Decision\n\nUse SQLite.\n",
      }),
    );
    expect((extracted.decisions as unknown[]).length).toBe(1);
    await check("decision_extract", await svc.post("/v1/decisions/extract", { content: "No decisions here." }));
    const recorded = await check(
      "decision_record",
      await svc.post("/v1/decisions", {
        namespace: "eng",
        title: "Use SQLite",
        decision: "Store it all in SQLite.",
        options: ["SQLite", "Files"],
        evidence: [hash],
      }),
    );
    await check("decision_get", await svc.get(fillPath(operations.decision_get.path, recorded), {}));
    const listed = await check("decisions_list", await svc.get("/v1/decisions", { namespace: "eng" }));
    expect(listed.decisions).toEqual([recorded]);
    await check("feedback", await svc.post("/v1/memory/feedback", { chunk_hashes: [hash], outcome: "used" }));
    await check("uplift", await svc.get("/v1/cognitive/uplift", { since: "7d" }));
    await check("uplift", await svc.get("/v1/cognitive/uplift", {}));
    const captured = await check(
      "shravan",
      await svc.post("/v1/memory/assimilation/shravan", {
        content: "Small teams ship faster. You should keep batches small. Does it hold for hardware?",
        source_type: "article",
        source_title: "Batches",
        authority: "expert",
        trust_score: 0.7,
        relevance_score: 0.9,
        questions: ["What about regulated work?"],
      }),
    );
    const reflected = await check(
      "manan",
      await svc.post("/v1/memory/assimilation/manan", { shravan_id: captured.id }),
    );
    const practiced = await check(
      "nididhyasan",
      await svc.post("/v1/memory/assimilation/nididhyasan", {
        manan_id: reflected.id,
        implementation_type: "checklist",
        propose_memory: true,
      }),
    );
    await check("knowledge_status", await svc.get("/v1/memory/assimilation/status", {}));
    await check("knowledge_review", await svc.get("/v1/memory/assimilation/review", {}));
    await check("proposals_list", await svc.get("/v1/memory/assimilation/proposals", { status: "pending" }));
    const proposalId = (practiced.proposal as { id: string }).id;
    await check(
      "proposal_review",
      await svc.post(
        "/v1/memory/assimilation/proposals/review",
        { proposal_id: proposalId, verdict: "approve" },
        {
          authorization: `Bearer ${(await svc.issueToken("default", ["reviewer"])).token}`,
          "x-svc-actor-id": "reviewer",
        },
      ),
    );
    const meeting = await check(
      "meeting_extract",
      await svc.post("/v1/meetings/extract", {
        transcript: "[00:00:05] Ann: We decided to ship.\n[00:00:09] Bo: I'll send the notes by Friday.\n",
        meeting_date: "2024-05-01",
      }),
    );
    expect((meeting.action_items as unknown[]).length).toBe(1);
    await check(
      "meeting_extract",
      await svc.post("/v1/meetings/extract", { transcript: "no speakers\nnothing decided" }),
    );
    await check("source_get", await svc.get("/v1/memory/source", { source_path: "mission.md" }));
    await check("forget", await svc.post("/v1/memory/forget", { chunk_hash: hash }));
    await check("forget", await svc.post("/v1/memory/forget", { source_path: "mission.md" }));
    await check("forget", await svc.post("/v1/memory/forget", { source_path: "mission.md" }));
  });

  it("error responses match each operation's error schema", async () => {
    for (const id of Object.keys(operations) as OperationId[]) {
      const op = operations[id];
      const res =
        op.method === "GET"
          ? await svc.get(op.path, {}, { authorization: null })
          : await svc.post(op.path, {}, { authorization: null });
      await check(id, res, 401);
      const bad = op.method === "GET" ? await svc.get(op.path, { limit: "x" }) : await svc.post(op.path, { nope: 1 });
      await check(id, bad, 400);
    }
    await check("forget", await svc.post("/v1/memory/forget", { source_path: "never.md" }), 404);
    await check("ingest", await svc.post("/v1/memory/ingest", { content: "bin\u0000ary" }), 422);
    await check("ingest", await svc.post("/v1/memory/ingest", "{}", { "content-type": "text/plain" }), 415);
    await check("grounded_answer", await svc.post("/v1/grounded/answer", { question: "zebra quasar nebula" }), 422);
  });

  it("the response schemas are strict enough to catch a broken citation", async () => {
    await svc.post("/v1/memory/ingest", { source_path: "mission.md", content: SEED });
    const body = (await (await svc.post("/v1/memory/recall", { query: "crew Houston" })).json()) as {
      hits: Record<string, unknown>[];
    };
    const schema = responseSchema("recall", "200");
    expectValid(schema, body, "recall");
    const hit = body.hits[0]!;
    for (const broken of [
      { ...hit, score: 1.5 },
      { ...hit, score: -0.1 },
      { ...hit, chunk_hash: "md5:abc" },
      { ...hit, retrieved_at: "yesterday" },
      Object.fromEntries(Object.entries(hit).filter(([k]) => k !== "text_span")),
    ])
      expectInvalid(schema, { ...body, hits: [broken] }, JSON.stringify(broken));
  });
});

describe("the /sdk/cognitive inspection routes in the document", () => {
  const sdkEntry = (id: keyof typeof cognitiveRoutes) =>
    doc.paths[cognitiveRoutes[id].path]?.[cognitiveRoutes[id].method.toLowerCase()];

  it("lists every route with its parameters, and real responses (and a 404) validate against it", async () => {
    await svc.post("/v1/memory/ingest", { source_path: "mission.md", content: SEED });
    // Recorded figures, so the ablation and stress parts of the responses are validated filled in, not only as null.
    await recordAblation(svc.runtime.store.cognitive, Date.now(), {
      run_id: "a1",
      commit: "abc",
      metrics: ["m"],
      all_on: { m: 0.7 },
      uplift: { viveka: { m: 0.02 } },
      off: { viveka: { m: 0.68 } },
    });
    await recordStress(svc.runtime.store.cognitive, Date.now(), {
      run_id: "s1",
      commit: "abc",
      cases: [
        {
          id: "ingested-twice",
          layer: "viveka",
          metric: "recall@10",
          queries: 10,
          unperturbed: 0.6,
          on: 0.58,
          off: 0.55,
          uplift: 0.03,
          changed: 2,
        },
      ],
    });
    const uplift = await svc.get("/v1/cognitive/uplift", {});
    expect(uplift.status).toBe(200);
    const body = (await uplift.json()) as {
      layers: { id: string; stress_uplift: unknown }[];
      stress: { run_id: string } | null;
    };
    expectValid(responseSchema("uplift", "200"), body, "uplift with figures");
    expect(body.layers.find((l) => l.id === "viveka")?.stress_uplift).toEqual({ "ingested-twice recall@10": 0.03 });
    expect(body.stress?.run_id).toBe("s1");
    const processed = (await (
      await svc.post(`${COGNITIVE_PREFIX}/process`, { query: "where does the crew train?" })
    ).json()) as { trace_id: string };
    const urls: Record<keyof typeof cognitiveRoutes, string> = {
      cognitive_health: "/health",
      cognitive_snapshot: "/snapshot",
      cognitive_layers: "/layers",
      cognitive_layer: "/layers/viveka",
      cognitive_state: "/state",
      cognitive_goals: "/goals",
      cognitive_karma: "/karma",
      cognitive_chitta: "/chitta",
      cognitive_identity: "/identity",
      cognitive_functional_state: "/functional-state",
      cognitive_process: "/process",
      cognitive_trace: `/traces/${processed.trace_id}`,
    };
    for (const id of Object.keys(cognitiveRoutes) as (keyof typeof cognitiveRoutes)[]) {
      const e = sdkEntry(id);
      expect(e, id).toBeDefined();
      expect(e!.parameters?.filter((p) => p.in === "path").map((p) => p.name)).toEqual(
        pathParameters(cognitiveRoutes[id].path),
      );
      const res =
        id === "cognitive_process"
          ? await svc.post(COGNITIVE_PREFIX + urls[id], { query: "crew" })
          : await svc.get(COGNITIVE_PREFIX + urls[id], id === "cognitive_state" ? { limit: "3" } : {});
      expect(res.status, id).toBe(200);
      expectValid(e!.responses["200"]!.content!["application/json"]!.schema, await res.json(), id);
    }
    expect(sdkEntry("cognitive_state")!.parameters?.some((p) => p.name === "limit" && p.in === "query")).toBe(true);
    expect(sdkEntry("cognitive_process")!.requestBody).toBeDefined();
    const missing = await svc.get(`${COGNITIVE_PREFIX}/layers/cortex`);
    expect(missing.status).toBe(404);
    expectValid(
      sdkEntry("cognitive_layer")!.responses["404"]!.content!["application/json"]!.schema,
      await missing.json(),
      "layer 404",
    );
  });
});
