// Every operation of the table refuses bad input, bad credentials and foreign workspaces with the documented code, and writes nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { operations, type OperationId } from "../../src/contract/operations.ts";
import { fillPath, pathParameters } from "../../src/contract/routes.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { openDbReader, type DbReader } from "../helpers/db-reader.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

interface Sample {
  /** A request the route accepts (body, or query for GET). */
  valid: Record<string, unknown>;
  /** Same shape, wrong JSON types (or unparsable query values). */
  wrongTypes: Record<string, unknown>;
}

const CAPTURE = {
  content: "Small batches ship faster. Teams should deploy daily.",
  source_type: "article",
  source_title: "Batch size",
  authority: "expert",
  trust_score: 0.8,
  relevance_score: 0.6,
};

/** One sample per operation; a new operation fails type-checking here until it gets one. */
const samples: { [K in OperationId]: Sample } = {
  recall: { valid: { query: "launch date" }, wrongTypes: { query: 5, k: "3" } },
  ingest: {
    valid: { source_path: "seed.md", content: "# Seed\n\nOverwritten by an accepted request.\n" },
    wrongTypes: { source_path: "seed.md", content: 42 },
  },
  forget: { valid: { source_path: "seed.md" }, wrongTypes: { source_path: 7 } },
  pack: { valid: { intent: "launch date" }, wrongTypes: { intent: ["launch"], budget_tokens: "big" } },
  grounded_answer: {
    valid: { question: "When is the launch date?", min_confidence: 0 },
    wrongTypes: { question: 1, k: true },
  },
  grounded_eval: {
    valid: { output: "The launch is on March 3.", nuggets: [{ text: "launch date March 3" }] },
    wrongTypes: { output: 1, nuggets: "none" },
  },
  audit: { valid: { limit: "5" }, wrongTypes: { limit: "abc" } },
  decision_extract: {
    valid: { content: "# Use SQLite\n\n## Status\n\nAccepted\n\n## Decision\n\nWe store everything in SQLite.\n" },
    wrongTypes: { content: ["x"] },
  },
  decision_record: {
    valid: { namespace: "eng", title: "Use SQLite", decision: "We store everything in SQLite." },
    wrongTypes: { title: 7, decision: ["x"], options: "one" },
  },
  decisions_list: { valid: { namespace: "eng", limit: "5" }, wrongTypes: { limit: "all" } },
  // The acceptance check below swaps in the ref the decision_record sample gets.
  decision_get: { valid: { ref: `dec_${"0".repeat(20)}` }, wrongTypes: { ref: "not-a-ref" } },
  meeting_extract: {
    valid: { transcript: "Alice: We decided to ship on Monday.\nBob: I'll write the notes.\n" },
    wrongTypes: { transcript: 3, meeting_date: 20240501 },
  },
  open_loops: { valid: { limit: "5" }, wrongTypes: { limit: "many" } },
  source_get: { valid: { source_path: "seed.md" }, wrongTypes: { source_path: "" } },
  // The acceptance check swaps in the hash of a stored passage.
  feedback: {
    valid: { chunk_hashes: [contentHash("x")], outcome: "used" },
    wrongTypes: { chunk_hashes: "all", outcome: 1 },
  },
  uplift: { valid: { since: "7d" }, wrongTypes: { since: "banana" } },
  shravan: { valid: CAPTURE, wrongTypes: { ...CAPTURE, trust_score: "high", questions: "why?" } },
  // The acceptance check below swaps in ids of a real capture, reflection and proposal.
  manan: { valid: { shravan_id: `shravan_${"0".repeat(20)}` }, wrongTypes: { shravan_id: 12 } },
  nididhyasan: {
    valid: { manan_id: `manan_${"0".repeat(20)}`, implementation_type: "checklist", propose_memory: true },
    wrongTypes: { manan_id: `manan_${"0".repeat(20)}`, implementation_type: "habit", propose_memory: "yes" },
  },
  knowledge_status: { valid: { limit: "5" }, wrongTypes: { limit: "lots" } },
  knowledge_review: { valid: { needs: "reflection" }, wrongTypes: { limit: "-" } },
  proposals_list: { valid: { status: "pending" }, wrongTypes: { limit: "x" } },
  proposal_review: {
    valid: { proposal_id: `proposal_${"0".repeat(20)}`, verdict: "approve" },
    wrongTypes: { proposal_id: `proposal_${"0".repeat(20)}`, verdict: true },
  },
};

const SEED = "# Seed\n\nThe seed vault says the launch date is March 3, 2024.\n";

let svc: TestService;
let actorToken: string;
let revokedToken: string;
let db: DbReader;

/** Everything a write could touch: documents, chunks, the changes log and the audit log. */
const fingerprint = async () => ({
  hashes: await db.all("SELECT document_hash FROM documents ORDER BY source_path"),
  chunks: await db.number("SELECT COUNT(*) FROM chunks"),
  changes: await db.number("SELECT COALESCE(MAX(seq), 0) FROM changes"),
  events: await db.number("SELECT COUNT(*) FROM events"),
  tombstones: await db.number("SELECT COUNT(*) FROM forgotten"),
});

let before: unknown;

beforeAll(async () => {
  svc = await startTestService();
  expect((await svc.post("/v1/memory/ingest", { source_path: "seed.md", content: SEED })).status).toBe(200);
  actorToken = (await svc.issueToken("default", ["alice"])).token;
  const revoked = await svc.issueToken("default");
  revokedToken = revoked.token;
  expect(await svc.runtime.auth.revoke(revoked.id)).toBe(true);
  db = await openDbReader(svc.config);
});
afterAll(async () => {
  await db.close();
  await svc.cleanup();
});

/** Sends an operation's input the way its method expects. */
function send(id: OperationId, input: unknown, headers: Record<string, string | null> = {}): Promise<Response> {
  const op = operations[id];
  if (op.method === "GET") {
    const fields = input as Record<string, unknown>;
    const inPath = new Set(pathParameters(op.path));
    const query = Object.fromEntries(
      Object.entries(fields)
        .filter(([k]) => !inPath.has(k))
        .map(([k, v]) => [k, String(v)]),
    );
    return svc.get(fillPath(op.path, fields), query, headers);
  }
  return svc.post(op.path, input, headers);
}

async function expectError(
  res: Response,
  status: number,
  code: string,
): Promise<{ message: string; details?: unknown }> {
  const body = (await res.json()) as { error: { code: string; message: string; details?: unknown } };
  expect({ status: res.status, code: body.error?.code }, JSON.stringify(body)).toEqual({ status, code });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

describe.each(Object.keys(operations) as OperationId[])("%s", (id) => {
  const op = operations[id];
  const sample = samples[id];
  const isPost = op.method === "POST";

  beforeAll(async () => {
    before = await fingerprint();
  });
  // Nothing below is accepted, so nothing may be written: not a document, chunk, tombstone or audit event.
  afterEach(async () => {
    expect(await fingerprint()).toEqual(before);
  });

  if (isPost) {
    it("400 malformed_json for a body that is not JSON", async () => {
      await expectError(await send(id, '{"query": "x",'), 400, "malformed_json");
    });

    it("an empty body is read as {} (the schema decides, as for {})", async () => {
      const outcome = async (res: Response) => [
        res.status,
        ((await res.json()) as { error?: { code: string } }).error?.code,
      ];
      expect(await outcome(await send(id, ""))).toEqual(await outcome(await send(id, "{}")));
    });

    it("415 for a body that is not declared as JSON", async () => {
      const body = JSON.stringify(sample.valid);
      await expectError(await send(id, body, { "content-type": "text/plain" }), 415, "unsupported_media_type");
      await expectError(await send(id, body, { "content-type": null }), 415, "unsupported_media_type");
      await expectError(
        await send(id, body, { "content-type": "application/x-www-form-urlencoded" }),
        415,
        "unsupported_media_type",
      );
    });

    it("400 invalid_request for a JSON value that is not an object", async () => {
      for (const body of ["[]", "null", '"text"', "42"])
        await expectError(await send(id, body), 400, "invalid_request");
    });

    it("413 payload_too_large for a body over limits.maxBodyBytes", async () => {
      const huge = JSON.stringify({ ...sample.valid, padding: "x".repeat(limits.maxBodyBytes) });
      expect(huge.length).toBeGreaterThan(limits.maxBodyBytes);
      await expectError(await send(id, huge), 413, "payload_too_large");
    });
  }

  it("400 invalid_request with details.issues for wrong types", async () => {
    const err = await expectError(await send(id, sample.wrongTypes), 400, "invalid_request");
    const issues = (err.details as { issues: { path: string; message: string; code: string }[] }).issues;
    expect(issues.length).toBeGreaterThan(0);
    const wrongKeys = Object.keys(sample.wrongTypes).filter(
      (k) => typeof sample.wrongTypes[k] !== typeof sample.valid[k],
    );
    for (const key of wrongKeys) expect(issues.map((i) => i.path)).toContain(key);
  });

  it("400 invalid_request for an unknown top-level field", async () => {
    const err = await expectError(await send(id, { ...sample.valid, surprise: "1" }), 400, "invalid_request");
    const issues = (err.details as { issues: { code: string; message: string }[] }).issues;
    expect(issues.some((i) => i.code === "unrecognized_keys" && i.message.includes("surprise"))).toBe(true);
  });

  it("401 unauthorized without a token, with a malformed header, or with an unknown token", async () => {
    await expectError(await send(id, sample.valid, { authorization: null }), 401, "unauthorized");
    await expectError(await send(id, sample.valid, { authorization: svc.token }), 401, "unauthorized");
    await expectError(await send(id, sample.valid, { authorization: "Basic dXNlcjpwYXNz" }), 401, "unauthorized");
    await expectError(
      await send(id, sample.valid, { authorization: "Bearer smr_not-a-real-token" }),
      401,
      "unauthorized",
    );
  });

  it("401 token_revoked for a revoked token", async () => {
    await expectError(await send(id, sample.valid, { authorization: `Bearer ${revokedToken}` }), 401, "token_revoked");
  });

  it("403 actor_forbidden when x-svc-actor-id is not one of the token's actors", async () => {
    const err = await expectError(
      await send(id, sample.valid, { authorization: `Bearer ${actorToken}`, "x-svc-actor-id": "mallory" }),
      403,
      "actor_forbidden",
    );
    expect(err.details).toEqual({ allowed_actors: ["alice"] });
    // A token without actors admits no actor header at all.
    await expectError(await send(id, sample.valid, { "x-svc-actor-id": "alice" }), 403, "actor_forbidden");
  });
});

describe("the samples are accepted (so the rejections above are about the defect, not the sample)", () => {
  it.each(Object.keys(operations) as OperationId[])("%s", async (id) => {
    // An allowed actor passes; ingest/forget samples are sent last, after the other checks.
    const as = { authorization: `Bearer ${actorToken}`, "x-svc-actor-id": "alice" };
    const res = await send(id, await acceptedInput(id, as), as);
    expect(res.status, await res.clone().text()).toBe(200);
    if (id === "ingest")
      expect((await svc.post("/v1/memory/ingest", { source_path: "seed.md", content: SEED })).status).toBe(200);
    if (id === "forget")
      expect((await svc.post("/v1/memory/ingest", { source_path: "seed.md", content: SEED })).status).toBe(200);
  });
});

/** The sample, with ids swapped for real ones where the route needs an existing record (created without an actor, so alice may review). */
async function acceptedInput(id: OperationId, as: Record<string, string>): Promise<Record<string, unknown>> {
  const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
  if (id === "feedback") {
    const hits = (
      (await (await send("recall", { query: "seed launch date" }, as)).json()) as { hits: { chunk_hash: string }[] }
    ).hits;
    return { chunk_hashes: hits.slice(0, 1).map((h) => h.chunk_hash), outcome: "used" };
  }
  if (id === "decision_get")
    return { ref: (await json(await send("decision_record", samples.decision_record.valid, as))).ref };
  if (id === "manan")
    return { shravan_id: (await json(await send("shravan", { ...CAPTURE, source_title: "For manan" }))).id };
  if (id === "nididhyasan" || id === "proposal_review") {
    const shravanId = (await json(await send("shravan", { ...CAPTURE, source_title: `For ${id}` }))).id;
    const mananId = (await json(await send("manan", { shravan_id: shravanId }))).id;
    if (id === "nididhyasan") return { ...samples.nididhyasan.valid, manan_id: mananId };
    const practiced = await json(
      await send("nididhyasan", { manan_id: mananId, implementation_type: "rule", propose_memory: true }),
    );
    return { ...samples.proposal_review.valid, proposal_id: (practiced.proposal as { id: string }).id };
  }
  return samples[id].valid;
}

describe("other refusals", () => {
  let other: TestService;
  let otherDb: DbReader;
  beforeAll(async () => {
    other = await startTestService();
    otherDb = await openDbReader(other.config);
  });
  afterAll(async () => {
    await otherDb.close();
    await other.cleanup();
  });
  const counts = async () => [
    await otherDb.number("SELECT COUNT(*) FROM documents"),
    await otherDb.number("SELECT COUNT(*) FROM chunks"),
    await otherDb.number("SELECT COUNT(*) FROM events"),
  ];

  it("422 binary_content for content with NUL bytes or mostly control characters, and nothing is written", async () => {
    const start = await counts();
    for (const content of [
      "PNG\u0000\u0001\u0002 header",
      "\u0001\u0002\u0003\u0004\u0005\u0006 binary-ish \u0007\u0008\u000e\u000f\u0010",
    ]) {
      await expectError(
        await other.post("/v1/memory/ingest", { source_path: "img.png", content }),
        422,
        "binary_content",
      );
      expect(await other.runtime.store.documents.getDocument(other.workspaceId, "img.png")).toBeUndefined();
      expect(await counts()).toEqual(start);
    }
    // Replacing an existing text source with binary keeps the old version.
    expect(
      (await other.post("/v1/memory/ingest", { source_path: "notes.txt", content: "Plain text about ferns." })).status,
    ).toBe(200);
    const after = await counts();
    await expectError(
      await other.post("/v1/memory/ingest", { source_path: "notes.txt", content: "\u0000\u0000" }),
      422,
      "binary_content",
    );
    expect(await counts()).toEqual(after);
    expect((await other.runtime.store.documents.getDocument(other.workspaceId, "notes.txt"))?.content).toBe(
      "Plain text about ferns.",
    );
  });

  it("400 for empty content, empty or blank queries, intents and questions", async () => {
    const start = await counts();
    await expectError(
      await other.post("/v1/memory/ingest", { source_path: "e.md", content: "" }),
      400,
      "invalid_request",
    );
    for (const query of ["", "   ", "\n\t"]) {
      await expectError(await other.post("/v1/memory/recall", { query }), 400, "invalid_request");
      await expectError(await other.post("/v1/memory/pack", { intent: query }), 400, "invalid_request");
      await expectError(await other.post("/v1/grounded/answer", { question: query }), 400, "invalid_request");
    }
    await expectError(await other.post("/v1/memory/recall", {}), 400, "invalid_request");
    expect(await counts()).toEqual(start);
  });

  it("400 for out-of-range numbers and bad filters", async () => {
    await expectError(await other.post("/v1/memory/recall", { query: "x", k: 0 }), 400, "invalid_request");
    await expectError(
      await other.post("/v1/memory/recall", { query: "x", k: limits.maxK + 1 }),
      400,
      "invalid_request",
    );
    await expectError(await other.post("/v1/memory/recall", { query: "x", k: 2.5 }), 400, "invalid_request");
    await expectError(
      await other.post("/v1/memory/recall", { query: "x", filters: { min_score: 1.5 } }),
      400,
      "invalid_request",
    );
    await expectError(
      await other.post("/v1/memory/recall", { query: "x", filters: { since: "yesterday" } }),
      400,
      "invalid_request",
    );
    await expectError(
      await other.post("/v1/memory/recall", { query: "x", filters: { colour: "red" } }),
      400,
      "invalid_request",
    );
    await expectError(
      await other.post("/v1/memory/pack", { intent: "x", budget_tokens: limits.minPackBudgetTokens - 1 }),
      400,
      "invalid_request",
    );
    await expectError(
      await other.post("/v1/memory/pack", { intent: "x", max_items: limits.maxPackItems + 1 }),
      400,
      "invalid_request",
    );
    await expectError(
      await other.post("/v1/memory/ingest", { content: "x", timestamp: "not a time" }),
      400,
      "invalid_request",
    );
    await expectError(await other.post("/v1/memory/ingest", { content: "x", kind: "pdf" }), 400, "invalid_request");
    await expectError(await other.post("/v1/memory/ingest", { content: "x", source_path: "" }), 400, "invalid_request");
  });

  it("400 when forget names both or neither target, or a malformed chunk_hash", async () => {
    await expectError(await other.post("/v1/memory/forget", {}), 400, "invalid_request");
    await expectError(
      await other.post("/v1/memory/forget", { source_path: "a.md", chunk_hash: contentHash("a") }),
      400,
      "invalid_request",
    );
    await expectError(await other.post("/v1/memory/forget", { chunk_hash: "sha256:XYZ" }), 400, "invalid_request");
    await expectError(
      await other.post("/v1/memory/forget", { chunk_hash: contentHash("a").toUpperCase() }),
      400,
      "invalid_request",
    );
  });

  it("404 route_not_found for unknown routes, 405 with Allow for a known route's wrong method, as JSON", async () => {
    await expectError(await other.post("/v1/memory/remember", { query: "x" }), 404, "route_not_found");
    const wrongMethod = await other.get("/v1/memory/recall");
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    await expectError(wrongMethod, 405, "method_not_allowed");
    const postToGet = await other.post("/v1/audit/event_log", {});
    expect(postToGet.headers.get("allow")).toBe("GET");
    await expectError(postToGet, 405, "method_not_allowed");
    // A static path is not taken for an id of a parameterised route of another method.
    const extractByGet = await other.get("/v1/decisions/extract");
    expect(extractByGet.headers.get("allow")).toBe("POST");
    await expectError(extractByGet, 405, "method_not_allowed");
    expect(
      (await other.post("/v1/decisions/extract", { content: "# ADR 1: Use SQLite\n\nStatus: accepted\n" })).status,
    ).toBe(200);
    await expectError(await other.get("/nowhere", {}, { authorization: null }), 404, "route_not_found");
    // Unknown /v1 routes still require a token: the API surface is not probed anonymously.
    await expectError(await other.post("/v1/memory/remember", {}, { authorization: null }), 401, "unauthorized");
  });
});

describe("workspace isolation (SVC_MULTI_TENANT=1)", () => {
  let mt: TestService;
  let beta: string;
  const paths = ["alpha/secret.md"];
  let alphaHash = "";

  beforeAll(async () => {
    mt = await startTestService({ multiTenant: true, workspace: "alpha" });
    beta = (await mt.issueToken("beta")).token;
    const res = await mt.post("/v1/memory/ingest", {
      source_path: paths[0],
      content: "# Secret\n\nThe alpha launch code word is pelican.\n",
    });
    expect(res.status).toBe(200);
    alphaHash = ((await res.json()) as { added: { chunk_hash: string }[] }).added[0]!.chunk_hash;
  });
  afterAll(async () => mt.cleanup());

  const asBeta = (path: string, body: unknown) => mt.post(path, body, { authorization: `Bearer ${beta}` });

  it("the other workspace recalls, packs and answers nothing from the first", async () => {
    const recall = (await (
      await asBeta("/v1/memory/recall", { query: "alpha launch code word pelican", k: 100 })
    ).json()) as { hits: unknown[] };
    expect(recall.hits).toEqual([]);
    const pack = (await (await asBeta("/v1/memory/pack", { intent: "alpha launch code word pelican" })).json()) as {
      items: unknown[];
      sources: unknown[];
    };
    expect(pack.items).toEqual([]);
    expect(pack.sources).toEqual([]);
    await expectError(
      await asBeta("/v1/grounded/answer", { question: "What is the alpha launch code word?", min_confidence: 0 }),
      422,
      "insufficient_evidence",
    );
    const own = (await (await mt.post("/v1/memory/recall", { query: "alpha launch code word pelican" })).json()) as {
      hits: unknown[];
    };
    expect(own.hits).toHaveLength(1);
  });

  it("the other workspace cannot forget the first one's data, by path or by hash", async () => {
    await expectError(await asBeta("/v1/memory/forget", { source_path: paths[0] }), 404, "not_found");
    await expectError(await asBeta("/v1/memory/forget", { chunk_hash: alphaHash }), 404, "not_found");
    await expectError(
      await mt.get("/v1/memory/source", { source_path: paths[0]! }, { authorization: `Bearer ${beta}` }),
      404,
      "not_found",
    );
    const own = (await (await mt.post("/v1/memory/recall", { query: "pelican" })).json()) as {
      hits: { chunk_hash: string }[];
    };
    expect(own.hits.map((h) => h.chunk_hash)).toEqual([alphaHash]);
  });

  it("a header cannot switch workspaces, and the other workspace's audit log is its own", async () => {
    const res = await asBeta("/v1/memory/recall", { query: "pelican" });
    expect(((await res.json()) as { hits: unknown[] }).hits).toEqual([]);
    const headerTry = await mt.post(
      "/v1/memory/recall",
      { query: "pelican" },
      { authorization: `Bearer ${beta}`, "x-workspace-id": "alpha", "x-svc-workspace": "alpha" },
    );
    expect(((await headerTry.json()) as { hits: unknown[] }).hits).toEqual([]);
    const log = (await (await mt.get("/v1/audit/event_log", {}, { authorization: `Bearer ${beta}` })).json()) as {
      events: { type: string }[];
    };
    expect(log.events.some((e) => e.type === "memory.ingest")).toBe(false);
  });

  it("identical content in two workspaces stays separate: forgetting in one leaves the other", async () => {
    const content = "# Shared\n\nBoth workspaces store the heron protocol.\n";
    expect((await mt.post("/v1/memory/ingest", { source_path: "s.md", content })).status).toBe(200);
    const betaIngest = (await (await asBeta("/v1/memory/ingest", { source_path: "s.md", content })).json()) as {
      deduplicated: number;
    };
    expect(betaIngest.deduplicated).toBe(0);
    expect((await asBeta("/v1/memory/forget", { source_path: "s.md" })).status).toBe(200);
    const own = (await (await mt.post("/v1/memory/recall", { query: "heron protocol" })).json()) as {
      hits: { source_path: string }[];
    };
    expect(own.hits.map((h) => h.source_path)).toEqual(["s.md"]);
  });

  it("with multi-tenancy off, a token for another workspace cannot be issued", async () => {
    const single = await startTestService();
    try {
      await expect(single.issueToken("beta")).rejects.toThrow(/multi-tenancy is off/);
    } finally {
      await single.cleanup();
    }
  });
});
