// The knowledge lifecycle over HTTP, MCP and the CLI: capture -> reflect -> practise, governed proposals, status and the review queue.
import { beforeAll, describe, expect, it } from "vitest";
import type {
  KnowledgeReviewResponse,
  KnowledgeStatusResponse,
  MananRecord,
  NididhyasanRecord,
  Proposal,
  ProposalListResponse,
  ShravanRecord,
} from "../../src/contract/assimilation.ts";
import type { Citation } from "../../src/contract/citation.ts";
import { cliEnv, runCli, runCliHere, runJsonHere } from "../cli/cli-helpers.ts";
import { callTool, toolError, useMcpService } from "../helpers/mcp-client.ts";
import type { TestService } from "../helpers/runtime.ts";

const ARTICLE = `# Deploying in small batches

Small batches reduce the risk of each deployment. Teams that deploy daily recover from incidents in under an hour.
You should keep every change behind a feature flag. Always measure lead time before and after.
However, small batches add coordination cost for hardware releases.
Does this hold for regulated industries?
`;

const capture = {
  content: ARTICLE,
  source_type: "article",
  source_title: "Deploying in small batches",
  authority: "expert",
  trust_score: 0.8,
  relevance_score: 0.6,
  lineage: { origin: "https://example.org/batches" },
  questions: ["How small is small enough?"],
  citation: { url: "https://example.org/batches", locator: "section 2" },
};

let svc: TestService;
const agent = { "x-svc-actor-id": "agent" };
const reviewer = { "x-svc-actor-id": "ravi" };
const service = useMcpService({ multiTenant: true, actors: ["agent", "ravi"] });
beforeAll(() => {
  svc = service.svc;
});

async function post<T>(
  path: string,
  body: unknown,
  headers: Record<string, string | null> = agent,
): Promise<{ status: number; body: T & { error?: { code: string; details?: Record<string, unknown> } } }> {
  const res = await svc.post(path, body, headers);
  return {
    status: res.status,
    body: (await res.json()) as T & { error?: { code: string; details?: Record<string, unknown> } },
  };
}
const shravan = (body: unknown = capture) => post<ShravanRecord>("/v1/memory/assimilation/shravan", body);
const manan = (shravan_id: string) => post<MananRecord>("/v1/memory/assimilation/manan", { shravan_id });
const nididhyasan = (manan_id: string, implementation_type: string, propose_memory = false) =>
  post<NididhyasanRecord>("/v1/memory/assimilation/nididhyasan", { manan_id, implementation_type, propose_memory });
const review = (proposal_id: string, verdict: string, headers: Record<string, string | null> = reviewer) =>
  post<Proposal>("/v1/memory/assimilation/proposals/review", { proposal_id, verdict }, headers);
const eventTypes = async () =>
  (
    (await (await svc.get("/v1/audit/event_log", { limit: "1000" })).json()) as { events: { type: string }[] }
  ).events.map((e) => e.type);

/** Each citation points at text stored in the vault: its text_span is a literal part of the stored source. */
async function expectStored(citations: readonly Citation[]): Promise<void> {
  for (const c of citations)
    expect(
      (await svc.runtime.store.documents.getDocument(svc.workspaceId, c.source_path))?.content,
      c.source_path,
    ).toContain(c.text_span);
}

describe("shravan: capture", () => {
  it("stores the content in the vault and returns the record with maturity, citations and next stage; a repeat is the same record", async () => {
    const { status, body } = await shravan();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      stage: "shravan",
      maturity_level: "captured",
      next_stage: "manan",
      source_type: "article",
      authority: "expert",
      created_by: "agent",
      lineage: { origin: "https://example.org/batches", parent_ids: [] },
      questions: ["How small is small enough?"],
    });
    expect(body.id).toMatch(/^shravan_[0-9a-f]{20}$/);
    // (stage 0 + quality (0.8 + 0.6) / 2) / 3
    expect(body.knowledge_maturity).toBeCloseTo(0.7 / 3, 4);
    expect(body.citations.map((c) => c.text_span).join("\n")).toContain("Small batches reduce the risk");
    await expectStored(body.citations);
    const hits = (
      (await (await svc.post("/v1/memory/recall", { query: "deployment lead time feature flag" })).json()) as {
        hits: Citation[];
      }
    ).hits;
    expect(hits[0]?.source_path).toBe(body.source_path);
    const before = (await eventTypes()).filter((t) => t === "knowledge.captured").length;
    expect((await shravan()).body).toEqual(body);
    expect((await eventTypes()).filter((t) => t === "knowledge.captured").length).toBe(before);
  });

  it("refuses unknown lineage parents (404), bad enums and out-of-range scores (400), writing nothing", async () => {
    const docs = (await svc.runtime.store.documents.listDocuments(svc.workspaceId)).length;
    const orphan = await shravan({
      ...capture,
      content: "Orphan text about queues.",
      lineage: { parent_ids: [`shravan_${"9".repeat(20)}`] },
    });
    expect(orphan.status).toBe(404);
    for (const bad of [
      { ...capture, authority: "god" },
      { ...capture, source_type: "rumour" },
      { ...capture, trust_score: 1.01 },
      { ...capture, relevance_score: -0.1 },
      { ...capture, content: " " },
    ]) {
      const res = await shravan(bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.body.error?.code).toBe("invalid_request");
    }
    expect((await svc.runtime.store.documents.listDocuments(svc.workspaceId)).length).toBe(docs);
  });
});

describe("manan: reflection", () => {
  it("cites a claim longer than a chunk by a stored chunk's hash, which feedback accepts", async () => {
    const long = `Small batches reduce risk because ${Array.from({ length: 160 }, (_, i) => `step ${i} stays reversible`).join(" and ")}.`;
    const captured = (await shravan({ ...capture, source_title: "One long claim", content: `# Long\n\n${long}\n` }))
      .body;
    const { status, body } = await manan(captured.id);
    expect(status).toBe(200);
    const claim = body.claims.find((c) => c.text === long);
    expect(claim).toBeDefined();
    const chunks = await svc.runtime.store.documents.documentChunks(svc.workspaceId, captured.source_path);
    expect(chunks.length).toBeGreaterThan(1); // the sentence really crosses a chunk boundary
    const cited = chunks.find((c) => c.chunkHash === claim!.citation.chunk_hash);
    expect(cited?.text).toContain(claim!.citation.text_span);
    expect(long).toContain(claim!.citation.text_span);
    expect(
      (await post("/v1/memory/feedback", { chunk_hashes: [claim!.citation.chunk_hash], outcome: "used" })).status,
    ).toBe(200);
  });

  it("extracts claims, questions, principles and counterpoints (in the capture and elsewhere in the vault), each cited", async () => {
    await svc.post("/v1/memory/ingest", {
      source_path: "notes/postmortem.md",
      content:
        "# Postmortem\n\nTeams that deploy daily do not recover from incidents in under an hour; ours took a day.\n",
    });
    const captured = (await shravan({ ...capture, source_title: "Batches, reflected" })).body;
    const { status, body } = await manan(captured.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      stage: "manan",
      shravan_id: captured.id,
      maturity_level: "reflected",
      next_stage: "nididhyasan",
      source_title: "Batches, reflected",
    });
    expect(body.knowledge_maturity).toBeCloseTo(1.7 / 3, 4);
    expect(body.claims.map((c) => c.text)).toEqual([
      "Small batches reduce the risk of each deployment.",
      "Teams that deploy daily recover from incidents in under an hour.",
    ]);
    expect(body.principles.map((c) => c.text)).toEqual([
      "You should keep every change behind a feature flag.",
      "Always measure lead time before and after.",
    ]);
    expect(body.questions).toEqual([
      expect.objectContaining({ text: "Does this hold for regulated industries?", origin: "content" }),
      { text: "How small is small enough?", origin: "capture", citation: null },
    ]);
    const inContent = body.counterpoints.filter((c) => c.origin === "content");
    expect(inContent.map((c) => [c.text, c.reason])).toEqual([
      ["However, small batches add coordination cost for hardware releases.", "contrast"],
    ]);
    const fromVault = body.counterpoints.filter((c) => c.origin === "vault");
    expect(fromVault).toEqual([
      expect.objectContaining({
        claim_index: 1,
        reason: "negation",
        text: "Teams that deploy daily do not recover from incidents in under an hour; ours took a day.",
      }),
    ]);
    expect(fromVault[0]!.citation.source_path).toBe("notes/postmortem.md");
    for (const item of [...body.claims, ...body.principles, ...body.counterpoints])
      expect(item.citation.text_span).toBe(item.text);
    await expectStored(body.citations);
  });

  it("reflects once (409 with the manan id), 404 for unknown or foreign ids, 409 for an id of another stage", async () => {
    const captured = (await shravan({ ...capture, source_title: "Reflect once" })).body;
    const first = (await manan(captured.id)).body;
    const again = await manan(captured.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "wrong_stage", details: { manan_id: first.id } });
    expect((await manan(`shravan_${"7".repeat(20)}`)).status).toBe(404);
    const wrong = await manan(first.id);
    expect(wrong.status).toBe(409);
    expect(wrong.body.error?.details).toEqual({ expected: "shravan", actual: "manan" });
    const beta = (await svc.issueToken("beta")).token;
    const foreign = await post(
      "/v1/memory/assimilation/manan",
      { shravan_id: captured.id },
      { authorization: `Bearer ${beta}` },
    );
    expect(foreign.status).toBe(404);
  });
});

describe("nididhyasan: practice and governed proposals", () => {
  let mananId = "";
  beforeAll(async () => {
    const captured = (await shravan({ ...capture, source_title: "Practise me" })).body;
    mananId = (await manan(captured.id)).body.id;
  });

  it.each(["habit", "task", "rule", "checklist", "project", "principle"])("makes a cited %s artefact", async (type) => {
    const { status, body } = await nididhyasan(mananId, type);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      stage: "nididhyasan",
      implementation_type: type,
      maturity_level: "practiced",
      next_stage: null,
      manan_id: mananId,
      proposal: null,
    });
    expect(body.knowledge_maturity).toBeCloseTo(2.7 / 3, 4);
    expect(body.artefact.type).toBe(type);
    expect(body.artefact.items.length).toBeGreaterThan(0);
    expect(body.citations.length).toBeGreaterThan(0);
    for (const i of body.artefact.items) if (i.citation) expect(i.citation.text_span).toBe(i.text);
    await expectStored(body.citations);
    if (type === "habit") expect(body.artefact.cadence).toBe("daily");
    if (type === "rule")
      expect(body.artefact.items.filter((i) => i.kind === "caveat").map((i) => i.text)).toContain(
        "However, small batches add coordination cost for hardware releases.",
      );
    if (type === "checklist") expect(body.artefact.items.every((i) => i.kind === "check")).toBe(true);
    if (type === "task")
      expect(body.artefact.items.filter((i) => i.kind === "resolve").map((i) => i.text)).toEqual([
        "Does this hold for regulated industries?",
        "How small is small enough?",
      ]);
  });

  it("practises each type once (409) and refuses ids of other stages (409) or unknown ones (404)", async () => {
    const again = await nididhyasan(mananId, "rule");
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe("wrong_stage");
    const captured = (await shravan({ ...capture, source_title: "Not reflected" })).body;
    expect((await nididhyasan(captured.id, "rule")).status).toBe(409);
    expect((await nididhyasan(`manan_${"4".repeat(20)}`, "rule")).status).toBe(404);
    expect(
      (await post("/v1/memory/assimilation/nididhyasan", { manan_id: mananId, implementation_type: "poem" })).status,
    ).toBe(400);
  });

  it("a proposal stays out of the vault until a named reviewer other than the proposer approves it; every step is audited", async () => {
    const captured = (await shravan({ ...capture, source_title: "Governed" })).body;
    const reflected = (await manan(captured.id)).body;
    const practiced = (await nididhyasan(reflected.id, "checklist", true)).body;
    expect(practiced.proposal).toMatchObject({ status: "pending" });
    const proposalId = practiced.proposal!.id;
    const listed = (
      (await (await svc.get("/v1/memory/assimilation/proposals", { status: "pending" })).json()) as ProposalListResponse
    ).proposals.find((p) => p.id === proposalId)!;
    expect(listed).toMatchObject({
      status: "pending",
      proposed_by: "agent",
      target_source_path: `knowledge/practiced/${practiced.id}.md`,
    });
    expect(await svc.runtime.store.documents.getDocument(svc.workspaceId, listed.target_source_path)).toBeUndefined();

    expect((await review(proposalId, "approve", {})).body.error?.code).toBe("reviewer_required");
    const self = await review(proposalId, "approve", agent);
    expect([self.status, self.body.error?.code]).toEqual([403, "self_review_forbidden"]);
    expect(await svc.runtime.store.documents.getDocument(svc.workspaceId, listed.target_source_path)).toBeUndefined();

    const approved = await review(proposalId, "approve");
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", reviewed_by: "ravi" });
    expect((await svc.runtime.store.documents.getDocument(svc.workspaceId, listed.target_source_path))?.content).toBe(
      listed.content,
    );
    const hits = (
      (await (
        await svc.post("/v1/memory/recall", {
          query: "Checklist Governed feature flag",
          filters: { source_path_prefix: "knowledge/practiced/" },
        })
      ).json()) as { hits: Citation[] }
    ).hits;
    expect(hits[0]?.source_path).toBe(listed.target_source_path);
    const twice = await review(proposalId, "reject");
    expect([twice.status, twice.body.error?.code]).toEqual([409, "wrong_stage"]);
    expect(await eventTypes()).toEqual(
      expect.arrayContaining(["knowledge.practiced", "knowledge.proposal_created", "knowledge.proposal_approved"]),
    );

    const other = (await nididhyasan(reflected.id, "rule", true)).body;
    const rejected = await review(other.proposal!.id, "reject");
    expect(rejected.body.status).toBe("rejected");
    expect(
      await svc.runtime.store.documents.getDocument(svc.workspaceId, rejected.body.target_source_path),
    ).toBeUndefined();
  });
});

describe("status and review queue", () => {
  it("counts each stage and what awaits the next, and pages the queue oldest first without repeats", async () => {
    const status = (await (
      await svc.get("/v1/memory/assimilation/status", { limit: "3" })
    ).json()) as KnowledgeStatusResponse;
    const counts = await svc.runtime.store.records.countRecords(svc.workspaceId);
    const n = (kind: string, childless?: boolean) =>
      counts
        .filter((c) => c.kind === kind && (childless === undefined || c.childless === childless))
        .reduce((s, c) => s + c.count, 0);
    expect(status.counts).toEqual({ captured: n("shravan"), reflected: n("manan"), practiced: n("nididhyasan") });
    expect(status.awaiting).toEqual({ reflection: n("shravan", true), practice: n("manan", true) });
    expect(status.counts.captured).toBeGreaterThan(3);
    expect(status.proposals).toEqual({ pending: 0, approved: 1, rejected: 1 });
    expect(status.recent).toHaveLength(3);
    expect(status.recent[0]!.stage).toBe("nididhyasan");
    expect(status.next_cursor).not.toBeNull();

    const queue: KnowledgeReviewResponse["items"] = [];
    let cursor: string | undefined;
    do {
      const page = (await (
        await svc.get("/v1/memory/assimilation/review", { limit: "2", ...(cursor ? { cursor } : {}) })
      ).json()) as KnowledgeReviewResponse;
      queue.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(queue.length).toBe(status.awaiting.reflection + status.awaiting.practice);
    expect(new Set(queue.map((i) => i.id)).size).toBe(queue.length);
    expect(queue.map((i) => i.created_at)).toEqual([...queue.map((i) => i.created_at)].sort());
    for (const i of queue) expect(i.needs).toBe(i.stage === "shravan" ? "reflection" : "practice");
    const onlyPractice = (await (
      await svc.get("/v1/memory/assimilation/review", { needs: "practice", limit: "200" })
    ).json()) as KnowledgeReviewResponse;
    expect(onlyPractice.items.map((i) => i.id)).toEqual(queue.filter((i) => i.needs === "practice").map((i) => i.id));
    const beta = (await svc.issueToken("beta")).token;
    expect(
      (
        await svc.get(
          "/v1/memory/assimilation/status",
          { cursor: status.next_cursor! },
          { authorization: `Bearer ${beta}` },
        )
      ).status,
    ).toBe(400);
    const empty = (await (
      await svc.get("/v1/memory/assimilation/status", {}, { authorization: `Bearer ${beta}` })
    ).json()) as KnowledgeStatusResponse;
    expect(empty).toMatchObject({ counts: { captured: 0, reflected: 0, practiced: 0 }, recent: [] });
  });
});

describe("MCP tools and the CLI review step", () => {
  it("runs the lifecycle through the MCP tools, which offer no way to approve a proposal", async () => {
    const client = await service.connect(agent);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.filter((t) => /review|approve/.test(t))).toEqual(["service_knowledge_review"]);
    const captured = await callTool<ShravanRecord>(client, "service_shravan_add", {
      ...capture,
      source_title: "Via MCP",
    });
    const reflected = await callTool<MananRecord>(client, "service_manan_reflect", { shravan_id: captured.id });
    const practiced = await callTool<NididhyasanRecord>(client, "service_nididhyasan_implement", {
      manan_id: reflected.id,
      implementation_type: "principle",
      propose_memory: true,
    });
    expect(practiced.proposal?.status).toBe("pending");
    const status = await callTool<KnowledgeStatusResponse>(client, "service_knowledge_status", {});
    expect(status.proposals.pending).toBe(1);
    const queue = await callTool<KnowledgeReviewResponse>(client, "service_knowledge_review", { needs: "reflection" });
    expect(queue.items.every((i) => i.stage === "shravan")).toBe(true);
    const proposals = await callTool<ProposalListResponse>(client, "service_memory_proposals", { status: "pending" });
    expect(proposals.proposals.map((p) => p.id)).toEqual([practiced.proposal!.id]);
    expect(
      toolError(await client.callTool({ name: "service_manan_reflect", arguments: { shravan_id: captured.id } })).code,
    ).toBe("wrong_stage");
  });

  it("smriti proposals list / review approves from the command line, as a named reviewer", async () => {
    const pending = (
      (await (await svc.get("/v1/memory/assimilation/proposals", { status: "pending" })).json()) as ProposalListResponse
    ).proposals;
    expect(pending).toHaveLength(1);
    const env = cliEnv({ SMRITI_DATA_DIR: svc.dataDir });
    const listed = await runJsonHere<Proposal[]>(["proposals", "list", "--json"], { env });
    expect(listed.map((p) => p.id)).toEqual([pending[0]!.id]);
    const refused = await runCli(["proposals", "review", pending[0]!.id], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--approve or --reject/);
    const approved = await runJsonHere<Proposal>(
      [
        "proposals",
        "review",
        pending[0]!.id,
        "--approve",
        "--reviewer",
        "ops-lead",
        "--note",
        "fits our practice",
        "--json",
      ],
      { env },
    );
    expect(approved).toMatchObject({ status: "approved", reviewed_by: "ops-lead", note: "fits our practice" });
    expect((await svc.runtime.store.documents.getDocument(svc.workspaceId, approved.target_source_path))?.content).toBe(
      approved.content,
    );
    const again = await runCliHere(["proposals", "review", pending[0]!.id, "--reject", "--reviewer", "ops-lead"], {
      env,
    });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/wrong_stage/);
  });
});
