// The TypeScript client against a real server: every operation, typed errors, the answer stream with resume, no node: imports.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, SmritiError, type SmritiClient } from "../../src/client/index.ts";
import { LAYER_IDS } from "../../src/contract/cognitive-layers.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const NOTE = "# Lighthouse\n\nThe Varenholm lighthouse was designed by Ingrid Solberg. It was finished in 1887.\n";

describe("smriti client", () => {
  let svc: TestService;
  let server: RunningServer;
  let client: SmritiClient;
  beforeAll(async () => {
    svc = await startTestService({ actors: ["planner", "ravi"] });
    server = await listen(svc.app, "127.0.0.1", 0);
    client = createClient({ baseUrl: server.url, token: svc.token, actorId: "planner" });
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  it("ingests, recalls, packs, answers, evaluates, reads the audit log and forgets", async () => {
    const ingested = await client.ingest({ source_path: "history/lighthouse.md", content: NOTE });
    expect(ingested.added.length).toBeGreaterThan(0);
    const recalled = await client.recall({ query: "who designed the lighthouse", k: 3 });
    expect(NOTE).toContain(recalled.hits[0]!.text_span);
    const asked = await client.recall({ query: "the lighthouse yesterday", asked_at: "2023-05-08T12:00:00+02:00" });
    expect(asked.notes).toEqual(["'yesterday' read as 6-8 May 2023 (asked on 8 May 2023; see asked_at)"]);
    const pack = await client.pack({ intent: "lighthouse history", budget_tokens: 200 });
    expect(pack.used_tokens).toBeLessThanOrEqual(200);
    const answer = await client.groundedAnswer({ question: "Who designed the Varenholm lighthouse?" });
    expect(answer.answer).toBe("Ingrid Solberg");
    const graded = await client.groundedEval({
      output: answer.answer,
      nuggets: [{ text: "Ingrid Solberg", importance: "vital" }],
    });
    expect(graded.nuggets[0]!.support).toBe("supported");
    const log = await client.auditLog({ trajectory_id: answer.trajectory_id });
    expect(log.events.at(-1)!.type).toBe("grounded.outcome");
    const ingests = await client.auditLog({ type: "memory.ingest", actor: "planner" });
    expect(ingests.events).toHaveLength(1);
    const forgotten = await client.forget({ source_path: "history/lighthouse.md" });
    expect(forgotten.removed_sources).toEqual(["history/lighthouse.md"]);
    expect((await client.recall({ query: "lighthouse" })).hits).toEqual([]);
  });

  it("runs the knowledge lifecycle to an approved proposal, reports feedback and reads the uplift", async () => {
    const captured = await client.shravan({
      content: NOTE,
      source_type: "note",
      source_title: "Lighthouse",
      authority: "official",
      trust_score: 0.8,
      relevance_score: 0.6,
      lineage: {},
      questions: [],
    });
    const reflected = await client.manan({ shravan_id: captured.id });
    expect(reflected.claims.map((c) => c.text)).toContain("The Varenholm lighthouse was designed by Ingrid Solberg.");
    const practiced = await client.nididhyasan({
      manan_id: reflected.id,
      implementation_type: "checklist",
      propose_memory: true,
    });
    expect((await client.knowledgeStatus()).counts).toMatchObject({ captured: 1, reflected: 1, practiced: 1 });
    expect((await client.knowledgeReview()).items).toEqual([]); // the one capture went all the way
    const pending = (await client.listProposals({ status: "pending" })).proposals;
    expect(pending.map((p) => p.id)).toEqual([practiced.proposal!.id]);
    await expect(client.reviewProposal({ proposal_id: pending[0]!.id, verdict: "approve" })).rejects.toMatchObject({
      status: 403,
      code: "self_review_forbidden",
    });
    const reviewer = createClient({ baseUrl: server.url, token: svc.token, actorId: "ravi" });
    expect(await reviewer.reviewProposal({ proposal_id: pending[0]!.id, verdict: "approve" })).toMatchObject({
      status: "approved",
      reviewed_by: "ravi",
    });
    const cited = reflected.claims[0]!.citation;
    expect(await client.feedback({ chunk_hashes: [cited.chunk_hash], outcome: "used" })).toMatchObject({ recorded: 1 });
    const uplift = await client.uplift({ since: "7d" });
    expect(uplift.layers.map((l) => l.id)).toEqual([...LAYER_IDS]); // every layer, in the contract's order
  });

  it("extracts decisions and lists open loops", async () => {
    const extracted = await client.extractDecisions({
      content: "# Sync\n\nWe decided to repaint the lighthouse in May.\n",
    });
    expect(extracted.decisions.map((d) => d.decision)).toEqual(["We decided to repaint the lighthouse in May."]);
    await client.ingest({
      source_path: "todo/lighthouse.md",
      content: "- [ ] TODO order paint\n- [x] TODO hire painter\n",
    });
    expect((await client.openLoops({ source_path_prefix: "todo/" })).loops.map((l) => l.text)).toEqual([
      "- [ ] TODO order paint",
    ]);
    await client.forget({ source_path: "todo/lighthouse.md" });
  });

  it("throws SmritiError with the service's stable code", async () => {
    const err = await client.recall({ query: "" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmritiError);
    expect(err).toMatchObject({ status: 400, code: "invalid_request" });
    const stranger = createClient({ baseUrl: server.url, token: svc.token, actorId: "intruder" });
    await expect(stranger.recall({ query: "x" })).rejects.toMatchObject({ status: 403, code: "actor_forbidden" });
  });

  it("streams an answer and resumes after the first event with exactly the rest", async () => {
    await client.ingest({ source_path: "history/lighthouse.md", content: NOTE });
    const all = [];
    for await (const e of client.groundedAnswerStream({ question: "When was the lighthouse finished?" })) all.push(e);
    expect(all.map((e) => e.event)).toEqual(["run_started", "step", "step", "step", "step", "run_complete"]);
    const rest = [];
    for await (const e of client.groundedAnswerStream(null, { lastEventId: all[0]!.id! })) rest.push(e);
    expect(rest.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
  });

  it("imports nothing from node: (it runs in browsers and edge runtimes too)", () => {
    const dir = new URL("../../src/client/", import.meta.url);
    for (const file of readdirSync(dir))
      expect(readFileSync(new URL(file, dir), "utf8")).not.toMatch(/from\s+["']node:/);
  });
});
