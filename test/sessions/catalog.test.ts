// The operator's catalog decides what a background session may execute (issue 39): with none, the command and A2A
// engines are off; a request names an entry, never an argv or a URL unless a free-form rule allows it; param values
// are checked; the approval floor raises what a request asks; a bad catalog stops the start, naming its field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { catalogEnv } from "../helpers/catalog.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, logOf } from "./support.ts";
import { startBackground, waitFor } from "./background-support.ts";

const catalog = {
  approval_floor: { "*": "never", guarded: "always" },
  command_agents: {
    greet: {
      argv: ["/bin/sh", "-c", "echo hello {who}; cat", "greet"],
      params: { who: { pattern: "[a-z]{1,12}", default: "world" } },
      sandbox: "process",
      approval_floor: "never",
    },
    careful: { argv: ["/bin/echo", "careful"], sandbox: "process" },
    lab_only: { argv: ["/bin/echo", "lab"], sandbox: "process", approval_floor: "never", workspaces: ["lab"] },
  },
};

async function refusal(svc: TestService, body: Record<string, unknown>): Promise<{ status: number; code: string }> {
  const before = (await (await svc.get("/sessions")).json()) as { sessions: unknown[] };
  const res = await svc.post("/sessions", body);
  const after = (await (await svc.get("/sessions")).json()) as { sessions: unknown[] };
  expect(after.sessions.length, "a refused start creates nothing").toBe(before.sessions.length);
  return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
}

describe("the agent catalog", () => {
  let svc: TestService;
  let bare: TestService;
  beforeAll(async () => {
    svc = await startTestService({ agentCatalog: catalog, env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
    bare = await startTestService({ agentCatalog: null });
  });
  afterAll(async () => {
    await svc.cleanup();
    await bare.cleanup();
  });

  it("turns the command and A2A engines off without a catalog, and says so; the native engine works", async () => {
    expect(await refusal(bare, { task: "t", engine: "command", command: ["id"], approval_mode: "never" })).toEqual({
      status: 400,
      code: "engine_disabled",
    });
    expect(
      await refusal(bare, { task: "t", engine: "a2a", agent_url: "http://169.254.169.254/", approval_mode: "never" }),
    ).toEqual({ status: 400, code: "engine_disabled" });
    expect(await refusal(bare, { task: "t", engine: "command", agent: "greet" })).toEqual({
      status: 400,
      code: "engine_disabled",
    });
    const native = await startBackground(bare, { task: "Who picked PostgreSQL?", approval_mode: "never" });
    expect(native.session.engine).toBe("native");
  });

  it("refuses a raw argv or agent URL where no free-form rule allows it (no request ever reaches the URL)", async () => {
    expect(
      await refusal(svc, { task: "t", engine: "command", command: ["cat", "/etc/passwd"], approval_mode: "never" }),
    ).toEqual({ status: 400, code: "catalog_entry_required" });
    expect(
      await refusal(svc, { task: "t", engine: "a2a", agent_url: "http://127.0.0.1:5432/", approval_mode: "never" }),
    ).toEqual({ status: 400, code: "catalog_entry_required" });
  });

  it("refuses an unknown agent, another workspace's agent, an unknown param and a value outside its pattern", async () => {
    expect(await refusal(svc, { task: "t", engine: "command", agent: "nope" })).toEqual({
      status: 400,
      code: "unknown_agent",
    });
    expect(await refusal(svc, { task: "t", engine: "command", agent: "lab_only" })).toEqual({
      status: 400,
      code: "unknown_agent",
    });
    expect(await refusal(svc, { task: "t", engine: "command", agent: "greet", agent_params: { whom: "x" } })).toEqual({
      status: 400,
      code: "invalid_request",
    });
    expect(
      await refusal(svc, { task: "t", engine: "command", agent: "greet", agent_params: { who: "x; rm -rf /" } }),
    ).toEqual({ status: 400, code: "invalid_request" });
    expect(await refusal(svc, { task: "t", engine: "a2a", agent: "greet" })).toEqual({
      status: 400,
      code: "unknown_agent",
    });
    expect(await refusal(svc, { task: "t", engine: "native", agent: "greet" })).toEqual({
      status: 400,
      code: "invalid_request",
    });
  });

  it("runs a named agent with its param filled as one argument, the task on stdin", async () => {
    const s = await startBackground(svc, {
      task: "the task",
      engine: "command",
      agent: "greet",
      agent_params: { who: "ada" },
      approval_mode: "never",
    });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "hello ada\nthe task" });
  });

  it("raises approval_mode never to the agent's floor, logs the decision, and waits for an operator", async () => {
    const s = await startBackground(svc, { task: "t", engine: "command", agent: "careful", approval_mode: "never" });
    expect(s.session.approval_mode).toBe("on-write");
    const log = await logOf(svc, s.session.session_id);
    expect(dataOf(log, "policy_decision")[0]).toMatchObject({
      subject: "approval_mode",
      source: "approval_floor",
      approval_mode: "on-write",
      reason: expect.stringContaining("catalog agent 'careful'"),
    });
    const waiting = await waitFor(svc, s.session.session_id, ["awaiting_approval", "completed"]);
    expect(waiting.session.status).toBe("awaiting_approval");
    expect(waiting.pending_approval).toMatchObject({ tool_name: "command" });
  });

  it("raises chat sessions to a workspace's floor and to the server's (SMRITI_APPROVAL_FLOOR)", async () => {
    const guarded = await startTestService({ workspace: "guarded", multiTenant: true, agentCatalog: catalog });
    const floored = await startTestService({ agentCatalog: null, env: { SMRITI_APPROVAL_FLOOR: "on-write" } });
    try {
      const sid = await createSession(guarded, { approval_mode: "never" });
      expect((await (await guarded.get(`/chat/sessions/${sid}`)).json()) as object).toMatchObject({
        session: { approval_mode: "always" },
      });
      const other = await createSession(floored, { approval_mode: "never" });
      expect(dataOf(await logOf(floored, other), "policy_decision")[0]).toMatchObject({
        subject: "approval_mode",
        approval_mode: "on-write",
        reason: expect.stringContaining("SMRITI_APPROVAL_FLOOR"),
      });
      const asked = await createSession(floored, { approval_mode: "always" });
      expect(dataOf(await logOf(floored, asked), "policy_decision")).toEqual([]); // asking for more than the floor is kept
    } finally {
      await guarded.cleanup();
      await floored.cleanup();
    }
  });

  it("stops the start on a bad catalog file, naming the file and the field", async () => {
    const bad = { command_agents: { x: { argv: ["/bin/echo", "{missing}"] } } };
    const config = loadConfig({ ...catalogEnv(bad) }, { data: svc.dataDir });
    await expect(createRuntime(config, { embedder: null, log: () => {} })).rejects.toThrow(
      /agent catalog .*catalog\.json: command_agents\.x\.argv: placeholder \{missing\} names no param/,
    );
    const notJson = catalogEnv("{");
    await expect(
      createRuntime(loadConfig(notJson, { data: svc.dataDir }), { embedder: null, log: () => {} }),
    ).rejects.toThrow(/agent catalog .*/);
  });

  it("reads the catalog again at each run: an agent removed since the start fails the run, not transiently", async () => {
    const first = await startTestService({ agentCatalog: catalog, env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
    const s = await startBackground(first, { task: "t", engine: "command", agent: "careful" });
    const waiting = await waitFor(first, s.session.session_id, ["awaiting_approval"]);
    await first.runtime.close();
    const second = await startTestService({
      dataDir: first.dataDir,
      agentCatalog: { command_agents: {} },
      env: { SMRITI_SESSION_HEARTBEAT_MS: "100" },
    });
    try {
      const approve = await second.post(
        `/sessions/${s.session.session_id}/approvals/${waiting.pending_approval!.request_id}`,
        { decision: "approve" },
      );
      expect(approve.status).toBe(200);
      const done = await waitFor(second, s.session.session_id, ["completed", "failed"]);
      expect(done.session).toMatchObject({
        status: "failed",
        last_error: expect.stringMatching(/no command agent 'careful'/),
      });
      expect(done.artifacts.some((a) => a.type === "final_output")).toBe(false);
    } finally {
      await second.cleanup();
    }
  });
});
