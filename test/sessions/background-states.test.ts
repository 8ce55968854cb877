// The spec's background-session state table, each transition driven through HTTP: retries up to and past max_retries,
// expiry before execution and at recovery, pause / resume / cancel, approval waits (a tool call, a bridged command),
// both health actions, and branching. Commands stand in for an external agent (the command bridge runs them).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackgroundSessionDetail } from "../../src/contract/background.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { dataOf, logOf, types } from "./support.ts";
import { act, detailOf, NOTE, startBackground, waitFor } from "./background-support.ts";

const HEARTBEAT = { SMRITI_SESSION_HEARTBEAT_MS: "100" };
const sh = (script: string) => ({ engine: "command", command: ["sh", "-c", script], approval_mode: "never" });
/** Fails with EX_TEMPFAIL until its `n`th run (it counts runs in its task workspace), then prints "done". */
const failsUntil = (n: number) =>
  sh(`c=$(cat runs 2>/dev/null || echo 0); c=$((c+1)); echo $c > runs; [ $c -ge ${n} ] && echo done || exit 75`);
/** Sleeps on its first run, prints "second run" on the next. */
const slowOnce = sh("if [ -f ran ]; then echo second run; else touch ran; sleep 20; fi");

const statuses = async (svc: TestService, sid: string) =>
  dataOf(await logOf(svc, sid), "session_state").map((s) => s.status);
const errorCode = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

describe("background session states", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: HEARTBEAT });
    expect((await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  it("retries a transient failure while attempt_count <= max_retries (running -> recovering -> running), then completes", async () => {
    const s = await startBackground(svc, { ...failsUntil(3), task: "flaky", max_retries: 2 });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "completed", attempt_count: 3 });
    expect(await statuses(svc, s.session.session_id)).toEqual([
      "queued",
      "running",
      "recovering",
      "running",
      "recovering",
      "running",
      "completed",
    ]);
    expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "done\n" });
    expect(done.artifacts.filter((a) => a.type === "run_record")).toHaveLength(3);
    expect(done.checkpoints.filter((c) => c.checkpoint_type === "recovery")).toHaveLength(2);
  });

  it("fails with last_error once a transient failure comes past max_retries", async () => {
    const s = await startBackground(svc, { ...failsUntil(99), task: "always flaky", max_retries: 1 });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "failed", attempt_count: 2 });
    expect(done.session.last_error).toMatch(/exited with 75.*no retries left after 2 runs/);
    const log = await logOf(svc, s.session.session_id);
    expect(dataOf(log, "session_state").map((x) => x.status)).toEqual([
      "queued",
      "running",
      "recovering",
      "running",
      "failed",
    ]);
    expect(types(log).at(-1)).toBe("error");
    expect(done.health.score).toBe(0);
  });

  it("fails a permanent failure at once, without retrying", async () => {
    const s = await startBackground(svc, { ...sh("echo broken >&2; exit 3"), task: "broken", max_retries: 5 });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "failed", attempt_count: 1 });
    expect(done.session.last_error).toMatch(/exited with 3: broken/);
  });

  it("pauses a running session (not terminal; checkpoints and artifacts kept) and requeues it on resume", async () => {
    const s = await startBackground(svc, { ...slowOnce, task: "slow" });
    const sid = s.session.session_id;
    const workspace = String(s.artifacts.find((a) => a.type === "task_workspace")!.path);
    while (!existsSync(join(workspace, "ran"))) await new Promise((r) => setTimeout(r, 10)); // the first run is under way
    const paused = (await (await act(svc, sid, "pause")).json()) as BackgroundSessionDetail;
    expect(paused.session.status).toBe("paused");
    expect(paused.checkpoints[0]).toMatchObject({ checkpoint_type: "paused" });
    expect(paused.artifacts.map((a) => a.type)).toContain("task_workspace");
    expect(await errorCode(await act(svc, sid, "pause"))).toEqual([409, "invalid_transition"]);
    const resumed = (await (await act(svc, sid, "resume")).json()) as BackgroundSessionDetail;
    expect(resumed.session.session_id).toBe(sid); // the same session, requeued
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "completed", attempt_count: 2 });
    expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "second run\n" });
    expect(await statuses(svc, sid)).toEqual(["queued", "running", "paused", "queued", "running", "completed"]);
    expect(await errorCode(await act(svc, sid, "resume"))).toEqual([409, "invalid_transition"]);
  });

  it("cancels a running session (terminal: resume without a point and a second cancel are refused)", async () => {
    const s = await startBackground(svc, { ...sh("sleep 20"), task: "long" });
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    const cancelled = (await (await act(svc, sid, "cancel")).json()) as BackgroundSessionDetail;
    expect(cancelled.session.status).toBe("cancelled");
    expect(cancelled.session.ended_at).toBeTruthy();
    expect(await errorCode(await act(svc, sid, "cancel"))).toEqual([409, "invalid_transition"]);
    expect(await errorCode(await act(svc, sid, "resume"))).toEqual([409, "invalid_transition"]);
  });

  it("waits for an approval of a write (durable approval_request_id); approving goes on to completed", async () => {
    const s = await startBackground(svc, {
      task: "Remember that the deploy window is Friday evening.",
      approval_mode: "on-write",
    });
    const sid = s.session.session_id;
    const waiting = await waitFor(svc, sid, ["awaiting_approval", "completed", "failed"]);
    expect(waiting.session.status).toBe("awaiting_approval");
    expect(waiting.pending_approval).toMatchObject({
      tool_name: "service_ingest",
      request_id: waiting.session.approval_request_id,
    });
    expect(waiting.health.flags.waiting).toBe(true);
    const res = await svc.post(`/sessions/${sid}/approvals/${waiting.session.approval_request_id}`, {
      decision: "approve",
    });
    expect(res.status).toBe(200);
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    expect(String(done.artifacts[0]!.text)).toMatch(/^Stored in memory/);
    const again = await svc.post(`/sessions/${sid}/approvals/${waiting.session.approval_request_id}`, {
      decision: "approve",
    });
    expect(await errorCode(again)).toEqual([409, "approval_settled"]);
    // The approved call ran once: one ingest outcome in the whole log.
    expect(dataOf(await logOf(svc, sid), "tool_outcome").filter((o) => o.tool_name === "service_ingest")).toHaveLength(
      1,
    );
  });

  it("a bridged command waits for approval under approval_mode always; denying it fails the run", async () => {
    const ok = await startBackground(svc, { ...sh("echo approved"), task: "t", approval_mode: "always" });
    const waiting = await waitFor(svc, ok.session.session_id, ["awaiting_approval", "completed", "failed"]);
    expect(waiting.pending_approval).toMatchObject({ tool_name: "command" });
    await svc.post(`/sessions/${ok.session.session_id}/approvals/${waiting.session.approval_request_id}`, {
      decision: "approve",
    });
    expect((await waitFor(svc, ok.session.session_id, ["completed", "failed"])).artifacts[0]).toMatchObject({
      text: "approved\n",
    });
    const log = await logOf(svc, ok.session.session_id);
    expect(dataOf(log, "policy_decision").map((d) => d.outcome)).toEqual(["ask", "allow"]);
    expect(types(log)).toEqual(
      expect.arrayContaining([
        "sandbox_notice",
        "approval_required",
        "approval_applied",
        "session_checkpoint",
        "completed",
      ]),
    );
    expect(types(log)).not.toContain("tool_call"); // a bridge has no per-tool events

    const no = await startBackground(svc, { ...sh("echo never"), task: "t", approval_mode: "always" });
    const asked = await waitFor(svc, no.session.session_id, ["awaiting_approval"]);
    await svc.post(`/sessions/${no.session.session_id}/approvals/${asked.session.approval_request_id}`, {
      decision: "deny",
    });
    const denied = await waitFor(svc, no.session.session_id, ["completed", "failed"]);
    expect(denied.session).toMatchObject({ status: "failed", last_error: "command: an operator denied it" });
  });

  it("a crossed health budget with action approval moves it to awaiting_approval; approving waives it and the run goes on", async () => {
    const s = await startBackground(svc, {
      task: "Who picked PostgreSQL?",
      approval_mode: "never",
      metadata: { policy: { health: { action: "approval", max_total_tokens: 0 } } },
    });
    const sid = s.session.session_id;
    const waiting = await waitFor(svc, sid, ["awaiting_approval", "completed", "failed"]);
    expect(waiting.session.status).toBe("awaiting_approval");
    expect(waiting.pending_approval).toMatchObject({ tool_name: "health_policy", budgets: ["max_total_tokens"] });
    expect(waiting.health.budgets.find((b) => b.name === "max_total_tokens")).toMatchObject({
      crossed: true,
      waived: false,
    });
    await svc.post(`/sessions/${sid}/approvals/${waiting.session.approval_request_id}`, { decision: "approve" });
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    expect(done.health.budgets.find((b) => b.name === "max_total_tokens")).toMatchObject({
      crossed: true,
      waived: true,
    });
    expect(String(done.artifacts[0]!.text)).toMatch(/^Alice/);
  });

  it("a crossed health budget with action pause pauses it; resuming waives the budget", async () => {
    const s = await startBackground(svc, {
      task: "Who picked PostgreSQL?",
      approval_mode: "never",
      metadata: { policy: { health: { action: "pause", max_context_usage_pct: 0 } } },
    });
    const sid = s.session.session_id;
    const paused = await waitFor(svc, sid, ["paused", "completed", "failed"]);
    expect(paused.session.status).toBe("paused");
    expect(paused.checkpoints[0]).toMatchObject({
      checkpoint_type: "health_pause",
      budgets: ["max_context_usage_pct"],
    });
    await act(svc, sid, "resume");
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    // Tool calls that had an outcome before the pause did not run again.
    const calls = dataOf(await logOf(svc, sid), "tool_outcome").map((o) => o.tool_name);
    expect(calls.filter((n) => n === "service_grounded_answer")).toHaveLength(1);
  });

  it("branches a new session from a checkpoint (parent, source event and cursor kept; the source untouched)", async () => {
    const s = await startBackground(svc, { task: "Who picked PostgreSQL?", approval_mode: "never" });
    const src = await waitFor(svc, s.session.session_id, ["completed"]);
    const step = src.checkpoints.find((c) => c.checkpoint_type === "step")!;
    const before = (await logOf(svc, src.session.session_id)).length;
    const res = await act(svc, src.session.session_id, "resume", { resume_cursor: step.resume_cursor });
    expect(res.status).toBe(200);
    const branch = (await res.json()) as BackgroundSessionDetail;
    expect(branch.session.session_id).not.toBe(src.session.session_id);
    expect(branch.session).toMatchObject({
      parent_session_id: src.session.session_id,
      branch_resume_cursor: step.resume_cursor,
      attempt_count: expect.any(Number),
    });
    expect(branch.session.branch_source_event_id).toMatch(new RegExp(`^${src.session.session_id}/\\d+$`));
    expect(branch.checkpoints.at(-1)).toMatchObject({
      checkpoint_type: "resume_seed",
      resume_cursor: step.resume_cursor,
    });
    // Write-capable, so it gets a task graph and a task workspace of its own, not its parent's.
    const graph = branch.artifacts.find((a) => a.type === "task_graph");
    expect(graph?.id).toBe(branch.session.task_graph_id);
    expect(branch.session.task_graph_id).not.toBe(src.session.task_graph_id);
    expect(branch.artifacts.find((a) => a.type === "task_workspace")?.path).toMatch(
      new RegExp(`/${branch.session.session_id}$`),
    );
    const done = await waitFor(svc, branch.session.session_id, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    // It went on from the source's point: the grounded answer the source had already run did not run again.
    expect(dataOf(await logOf(svc, branch.session.session_id), "tool_outcome").map((o) => o.tool_name)).not.toContain(
      "service_grounded_answer",
    );
    expect((await logOf(svc, src.session.session_id)).length).toBe(before);
    // Its checkpoints, the ones opening it (seed, task graph, task workspace) and its runs', are numbered 1, 2, 3, ...
    const sequences = dataOf(await logOf(svc, branch.session.session_id), "session_checkpoint").map((c) => c.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    // A cursor of another session is refused, and nothing is created.
    const other = await act(svc, branch.session.session_id, "resume", { resume_cursor: step.resume_cursor });
    expect(await errorCode(other)).toEqual([400, "event_not_in_session"]);
  });

  it("lists sessions newest first, filtered by status and kind, with health, in pages", async () => {
    const page = (await (await svc.get("/sessions", { kind: "background", limit: "2" })).json()) as {
      sessions: { kind: string; health: unknown }[];
      next_cursor: string;
    };
    expect(page.sessions).toHaveLength(2);
    expect(page.sessions.every((s) => s.kind === "background" && s.health)).toBe(true);
    const next = (await (
      await svc.get("/sessions", { kind: "background", limit: "2", cursor: page.next_cursor })
    ).json()) as { sessions: { session: { session_id: string } }[] };
    expect(next.sessions.length).toBeGreaterThan(0);
    const failed = (await (await svc.get("/sessions", { status: "failed" })).json()) as {
      sessions: { session: { status: string } }[];
    };
    expect(failed.sessions.length).toBeGreaterThanOrEqual(3);
    expect(failed.sessions.every((s) => s.session.status === "failed")).toBe(true);
  });
});

describe("background session expiry", () => {
  it("fails a session whose expires_at passes before it runs (an expired checkpoint is written)", async () => {
    const svc = await startTestService({ env: { ...HEARTBEAT, SMRITI_MAX_RUNNING_SESSIONS: "1" } });
    try {
      const blocker = await startBackground(svc, { ...sh("sleep 20"), task: "holds the only slot" });
      await waitFor(svc, blocker.session.session_id, ["running"]);
      const late = await startBackground(svc, {
        ...sh("echo never"),
        task: "t",
        expires_at: new Date(Date.now() + 1_500).toISOString(), // time for a loaded machine to queue it first
      });
      expect(late.session.status).toBe("queued");
      await new Promise((r) => setTimeout(r, 1_600));
      await act(svc, blocker.session.session_id, "cancel");
      const done = await waitFor(svc, late.session.session_id, ["failed", "completed"]);
      expect(done.session).toMatchObject({ status: "failed", attempt_count: 0 });
      expect(done.checkpoints[0]).toMatchObject({ checkpoint_type: "expired" });
      expect(await statuses(svc, late.session.session_id)).toEqual(["queued", "failed"]);
    } finally {
      await svc.cleanup();
    }
  });

  it("fails a session started with an expires_at already past before it runs, with an expired checkpoint (errors rule 4)", async () => {
    const svc = await startTestService({ env: HEARTBEAT });
    try {
      const res = await svc.post("/sessions", { task: "Who picked PostgreSQL?", expires_at: "2001-01-01T00:00:00Z" });
      expect(res.status).toBe(200);
      const s = (await res.json()) as BackgroundSessionDetail;
      expect(s.session).toMatchObject({
        status: "failed",
        attempt_count: 0,
        last_error: "the session expired at 2001-01-01T00:00:00Z",
      });
      expect(s.checkpoints.map((c) => c.checkpoint_type)).toEqual(["expired"]);
      const log = await logOf(svc, s.session.session_id);
      expect(dataOf(log, "session_state").map((x) => x.status)).toEqual(["queued", "failed"]);
      expect(dataOf(log, "error")).toMatchObject([{ code: "session_expired" }]);
    } finally {
      await svc.cleanup();
    }
  });

  it("fails a session whose expires_at passed when the supervisor recovers it after a restart", async () => {
    const first = await startTestService({ env: HEARTBEAT });
    const s = await startBackground(first, {
      ...sh("sleep 20"),
      task: "t",
      expires_at: new Date(Date.now() + 2_000).toISOString(), // time for a loaded machine to start the run first
    });
    await waitFor(first, s.session.session_id, ["running"]);
    await first.runtime.close(); // the run is handed back as recovering
    await new Promise((r) => setTimeout(r, 2_100));
    const second = await startTestService({ env: HEARTBEAT, dataDir: first.dataDir });
    try {
      const done = await waitFor(second, s.session.session_id, ["failed", "completed"]);
      expect(done.session.status).toBe("failed");
      expect(done.checkpoints[0]).toMatchObject({ checkpoint_type: "expired" });
      expect(dataOf(await logOf(second, s.session.session_id), "session_state").map((x) => x.status)).toEqual([
        "queued",
        "running",
        "recovering",
        "failed",
      ]);
    } finally {
      await second.cleanup();
    }
  });
});

describe("background session requests refused", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: HEARTBEAT });
  });
  afterAll(() => svc.cleanup());

  it("refuses unknown budget names, negative thresholds and a command engine without a command, creating nothing", async () => {
    const before = ((await (await svc.get("/sessions")).json()) as { sessions: unknown[] }).sessions.length;
    for (const body of [
      { task: "t", metadata: { policy: { health: { max_coffee_breaks: 3 } } } },
      { task: "t", metadata: { policy: { health: { max_total_tokens: -1 } } } },
      { task: "t", metadata: { policy: { health: { action: "explode" } } } },
      { task: "t", engine: "command" },
      { task: "t", command: ["echo"] },
      { task: "" },
    ])
      expect(await errorCode(await svc.post("/sessions", body)), JSON.stringify(body)).toEqual([
        400,
        "invalid_request",
      ]);
    expect(((await (await svc.get("/sessions")).json()) as { sessions: unknown[] }).sessions.length).toBe(before);
  });

  it("a chat session is not a background one (and the other way round)", async () => {
    const chat = ((await (await svc.post("/chat/sessions", {})).json()) as { session_id: string }).session_id;
    expect(await errorCode(await svc.get(`/sessions/${chat}`))).toEqual([404, "not_found"]);
    const bg = await startBackground(svc, { ...sh("echo hi"), task: "t" });
    expect(await errorCode(await svc.get(`/chat/sessions/${bg.session.session_id}`))).toEqual([404, "not_found"]);
    expect(
      await errorCode(await svc.post(`/chat/sessions/${bg.session.session_id}/messages`, { message: "hi" })),
    ).toEqual([404, "not_found"]);
    expect((await detailOf(svc, bg.session.session_id)).session.engine).toBe("command");
  });
});
