// Approvals through HTTP: a write pauses the turn, approve runs it, deny ends it denied, a decision counts once, and a
// pending approval survives a restart of the service.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SseEvent } from "../../src/client/sse.ts";
import { createRuntime } from "../../src/main.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, decide, logOf, readSse, send, types } from "./support.ts";

const pending = (events: readonly SseEvent[]) =>
  dataOf<{ request_id: string; tool_name: string; tool_call_id: string }>(events, "approval_required")[0]!;

describe("approvals", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.cleanup());

  it("pauses a write for approval; approve runs it and the turn goes on to its answer", async () => {
    const sid = await createSession(svc);
    const first = await send(svc, sid, "Remember that the deploy window is Friday evening.");
    expect(types(first).slice(-4)).toEqual(["policy_decision", "approval_required", "session_state", "turn_end"]);
    expect(dataOf(first, "policy_decision").at(-1)).toMatchObject({
      subject: "service_ingest",
      outcome: "ask",
      source: "approval_mode",
    });
    expect(dataOf(first, "turn_end")[0]).toMatchObject({ status: "awaiting_approval" });
    expect(types(first)).not.toContain("tool_call"); // the tool has not started
    const ask = pending(first);
    const detail = (await (await svc.get(`/chat/sessions/${sid}`)).json()) as {
      session: { status: string; approval_request_id: string };
      pending_approval: { request_id: string };
    };
    expect(detail.session).toMatchObject({ status: "awaiting_approval", approval_request_id: ask.request_id });
    expect(detail.pending_approval.request_id).toBe(ask.request_id);

    // A message while the approval is pending is refused, and nothing is logged for it.
    const before = (await logOf(svc, sid)).length;
    const busy = await svc.post(`/chat/sessions/${sid}/messages`, { message: "hello?" });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("awaiting_approval");
    expect((await logOf(svc, sid)).length).toBe(before);

    const rest = await decide(svc, sid, ask.request_id, "approve");
    expect(types(rest).slice(0, 5)).toEqual([
      "approval_applied",
      "session_state",
      "tool_call",
      "tool_result",
      "tool_outcome",
    ]);
    expect(dataOf(rest, "approval_applied")[0]).toEqual({
      request_id: ask.request_id,
      tool_name: "service_ingest",
      decision: "approve",
    });
    expect(dataOf(rest, "tool_outcome")[0]).toMatchObject({ tool_call_id: ask.tool_call_id, status: "ok" });
    expect(dataOf(rest, "response")[0]!.text).toMatch(/^Stored in memory as notes\/remembered\//);
    expect(types(rest).at(-1)).toBe("completed");
    // The note is in memory now.
    const recall = (await (await svc.post("/v1/memory/recall", { query: "deploy window" })).json()) as {
      hits: { text_span: string }[];
    };
    expect(recall.hits[0]!.text_span).toContain("Friday evening");

    // Deciding again is a conflict; an unknown request is 404.
    const again = await svc.post(`/chat/sessions/${sid}/approvals/${ask.request_id}`, { decision: "deny" });
    expect([again.status, ((await again.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      "approval_settled",
    ]);
    const unknown = await svc.post(`/chat/sessions/${sid}/approvals/apr_00000000-0000-0000-0000-000000000000`, {
      decision: "approve",
    });
    expect(unknown.status).toBe(404);
  });

  it("deny ends the tool as denied without running it, and the agent says so", async () => {
    const sid = await createSession(svc);
    const ask = pending(await send(svc, sid, "Remember that the office moves in May."));
    const rest = await decide(svc, sid, ask.request_id, "deny");
    expect(types(rest)).not.toContain("tool_call");
    expect(types(rest)).not.toContain("tool_result");
    expect(dataOf(rest, "tool_outcome")[0]).toMatchObject({
      tool_call_id: ask.tool_call_id,
      status: "denied",
      outcome_type: "denial",
    });
    expect(dataOf(rest, "response")[0]!.text).toMatch(/^I did not store the note \(denied/);
    const recall = (await (await svc.post("/v1/memory/recall", { query: "office moves May" })).json()) as {
      hits: unknown[];
    };
    expect(recall.hits).toEqual([]);
  });

  it("approval_mode never runs writes at once; read-only denies them by permission", async () => {
    const free = await createSession(svc, { approval_mode: "never" });
    const ran = await send(svc, free, "Remember that lunch is at noon.");
    expect(dataOf(ran, "tool_outcome")[0]).toMatchObject({ tool_name: "service_ingest", status: "ok" });
    const ro = await createSession(svc, { permission_mode: "read-only" });
    const denied = await send(svc, ro, "Remember that lunch is at one.");
    expect(dataOf(denied, "policy_decision")[0]).toMatchObject({
      outcome: "deny",
      source: "permission_mode",
      permission_mode: "read-only",
    });
    expect(dataOf(denied, "tool_outcome")[0]).toMatchObject({ status: "denied" });
    expect(types(denied)).not.toContain("tool_call");
  });

  it("keeps what a turn said before an approval pause in its response", async () => {
    await svc.post("/v1/memory/ingest", {
      source_path: "storage.md",
      content: "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n",
    });
    const sid = await createSession(svc, { approval_mode: "always" });
    const first = await send(svc, sid, "Who picked PostgreSQL?");
    const rest = await decide(svc, sid, pending(first).request_id, "approve"); // the grounded answer
    const last = await decide(svc, sid, pending(rest).request_id, "approve"); // the pack, asked for after the answer was said
    expect(dataOf(last, "tool_outcome")[0]).toMatchObject({ tool_name: "service_pack", status: "ok" });
    expect(dataOf(last, "response")[0]!.text).toMatch(/^Alice\. Evidence: /);
    expect(dataOf(last, "reflection")[0]).toMatchObject({ passed: true });
  });

  it("gives a delegated sub-agent its parent's policy file, with its asks denied", async () => {
    mkdirSync(svc.config.policyDir, { recursive: true });
    writeFileSync(
      join(svc.config.policyDir, "ask-answers.json"),
      JSON.stringify({ tools: { service_grounded_answer: "ask" } }),
    );
    const sid = await createSession(svc, { policy_path: "ask-answers.json" });
    const events = await send(svc, sid, "Who picked PostgreSQL? What needs migrating?");
    const child = dataOf<{ session_id: string; status: string }>(events, "subagent_event").at(-1)!;
    const childLog = await logOf(svc, child.session_id);
    expect(dataOf(childLog, "policy_decision")[0]).toMatchObject({
      subject: "service_grounded_answer",
      outcome: "deny",
      source: "policy",
      policy_path: "ask-answers.json",
    });
    expect(types(childLog)).not.toContain("approval_required");
  });

  it("keeps a pending approval across a restart of the service, and approving it then finishes the turn", async () => {
    const own = await startTestService();
    const sid = await createSession(own);
    const ask = pending(await send(own, sid, "Remember that backups run at 02:00."));
    // A new runtime on the same data directory, as after a restart (the first one is closed first).
    await own.runtime.close();
    const runtime = await createRuntime(own.config, { embedder: null, log: () => {} });
    try {
      const app = createHttpApp(runtime);
      const token = (await runtime.auth.issue({ workspace: "default", actors: [] })).token;
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const detail = (await (await app.request(`/chat/sessions/${sid}`, { headers })).json()) as {
        pending_approval: { request_id: string };
      };
      expect(detail.pending_approval.request_id).toBe(ask.request_id);
      const rest = await readSse(
        await app.request(`/chat/sessions/${sid}/approvals/${ask.request_id}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ decision: "approve" }),
        }),
      );
      expect(dataOf(rest, "tool_outcome")[0]).toMatchObject({ status: "ok", tool_name: "service_ingest" });
      expect(types(rest).at(-1)).toBe("completed");
    } finally {
      await runtime.close();
      rmSync(own.dataDir, { recursive: true, force: true });
    }
  });
});
