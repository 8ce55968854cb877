// Governance through HTTP: a policy file's deny and ask rules, before and after hooks, a tool timeout, the artifact
// status of a file the session writes (confined to its task workspace), and the honest sandbox notice.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTools, say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { freeFormCatalog } from "../helpers/catalog.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, logOf, send, types } from "./support.ts";

describe("session governance", () => {
  let wire: ChatServer;
  let svc: TestService;
  let policies: string;
  const policy = (name: string, body: object) => writeFileSync(join(policies, name), JSON.stringify(body));
  beforeAll(async () => {
    wire = await startChatServer();
    policies = mkdtempSync(join(tmpdir(), "smriti-policies-"));
    // The operator turned on the weaker process sandbox by name: hooks run where bubblewrap cannot (isolation.test.ts refuses).
    const agentCatalog = { ...freeFormCatalog(), process_sandbox: true };
    svc = await startTestService({
      env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base, SMRITI_POLICY_DIR: policies },
      agentCatalog,
    });
    await svc.post("/v1/memory/ingest", { source_path: "a.md", content: "# A\n\nThe archive lives in Oslo.\n" });
  });
  afterAll(async () => {
    await svc.cleanup();
    await wire.close();
    rmSync(policies, { recursive: true, force: true });
  });

  it("denies a tool the policy file denies, with the decision's source and path", async () => {
    policy("no-recall.json", { tools: { service_recall: "deny" } });
    wire.script(callTools({ name: "service_recall", args: '{"query":"archive"}' }), say("Denied."));
    const sid = await createSession(svc, { policy_path: "no-recall.json" });
    const events = await send(svc, sid, "Where is the archive?");
    expect(dataOf(events, "policy_decision")[0]).toMatchObject({
      subject: "service_recall",
      outcome: "deny",
      source: "policy",
      policy_path: "no-recall.json",
    });
    expect(dataOf(events, "tool_outcome")[0]).toMatchObject({ status: "denied", outcome_type: "denial" });
    expect(types(events)).not.toContain("tool_call");
  });

  it("asks an operator for a read when the policy says ask, even with approval_mode never", async () => {
    policy("ask-recall.json", { tools: { service_recall: "ask" } });
    wire.script(callTools({ name: "service_recall", args: '{"query":"archive"}' }), say("ok"));
    const sid = await createSession(svc, { policy_path: "ask-recall.json", approval_mode: "never" });
    const events = await send(svc, sid, "Where is the archive?");
    expect(dataOf(events, "approval_required")[0]).toMatchObject({ tool_name: "service_recall" });
  });

  it("refuses a policy_path outside the policy directory or a bad policy file, creating nothing", async () => {
    policy("bad.json", { tools: { service_recall: "sometimes" } });
    for (const policy_path of ["../escape.json", "missing.json", "bad.json"]) {
      const res = await svc.post("/chat/sessions", { policy_path });
      expect(res.status, policy_path).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
  });

  it("ends a call blocked by a before hook as denied, and a failing after hook as an error without tool_result", async () => {
    policy("hooks.json", {
      hooks: [
        {
          name: "block-recall",
          phase: "before",
          tools: ["service_recall"],
          command: ["/bin/sh", "-c", "cat >/dev/null; exit 3"],
        },
        {
          name: "check-pack",
          phase: "after",
          tools: ["service_pack"],
          command: ["/bin/sh", "-c", "grep -q never-there"],
        },
        { name: "audit", phase: "before", tools: ["service_pack"], command: ["/bin/sh", "-c", "cat >/dev/null"] },
      ],
    });
    wire.script(
      callTools(
        { name: "service_recall", args: '{"query":"archive"}' },
        { name: "service_pack", args: '{"intent":"archive"}' },
      ),
      say("done"),
    );
    const sid = await createSession(svc, { policy_path: "hooks.json" });
    const events = await send(svc, sid, "Where is the archive?");
    expect(dataOf(events, "hook_event").map((h) => [h.hook, h.phase, h.status])).toEqual([
      ["block-recall", "before", "error"],
      ["audit", "before", "ok"],
      ["check-pack", "after", "error"],
    ]);
    expect(dataOf(events, "tool_outcome").map((o) => [o.tool_name, o.status])).toEqual([
      ["service_recall", "denied"],
      ["service_pack", "error"],
    ]);
    expect(types(events)).not.toContain("tool_result");
    const notice = dataOf(events, "sandbox_notice");
    expect(notice).toHaveLength(1); // once per turn, before the first call that runs a hook
    expect(notice[0]).toMatchObject({ requested_backend: "auto" });
    expect(["bubblewrap", "process"]).toContain(notice[0]!.resolved_backend);
    if (notice[0]!.resolved_backend === "process") expect(String(notice[0]!.isolation)).toMatch(/^hooks: weaker/);
  });

  it("runs hooks under the sandbox the notice names: bubblewrap keeps a hook from writing outside the task workspace", async () => {
    // A folder anyone may write to (a process hook runs as nobody when the service is root): only isolation keeps it out.
    const open = mkdtempSync(join(tmpdir(), "smriti-open-"));
    chmodSync(open, 0o777);
    const outside = join(open, "escaped.txt");
    policy("escape.json", {
      hooks: [
        {
          name: "escape",
          phase: "before",
          tools: "*",
          command: ["/bin/sh", "-c", `cat >/dev/null; echo x > ${outside}`],
        },
      ],
    });
    for (const sandbox_mode of ["auto", "process"] as const) {
      rmSync(outside, { force: true });
      wire.script(callTools({ name: "service_recall", args: '{"query":"archive"}' }), say("ok"));
      const sid = await createSession(svc, { policy_path: "escape.json", sandbox_mode });
      const events = await send(svc, sid, "Where is the archive?");
      const notice = dataOf(events, "sandbox_notice")[0]!;
      const status = dataOf(events, "tool_outcome")[0]!.status;
      if (notice.resolved_backend === "bubblewrap") {
        // Outside the task workspace the hook sees a read-only root and a private /tmp: the host file is never written.
        expect(existsSync(outside)).toBe(false);
      } else {
        expect(notice.isolation).toMatch(/^hooks: weaker/);
        expect([status, existsSync(outside)]).toEqual(["ok", true]); // what "weaker" means: nothing stops it
      }
      if (sandbox_mode === "process")
        expect(notice).toMatchObject({
          resolved_backend: "process",
          reason: "the process sandbox was asked for; the operator turned it on",
        });
    }
  });

  it("ends a call that outlives tool_timeout_ms as a timeout", async () => {
    policy("slow.json", { hooks: [{ name: "slow", phase: "before", tools: "*", command: ["/bin/sleep", "5"] }] });
    wire.script(callTools({ name: "service_recall", args: '{"query":"archive"}' }), say("too slow"));
    const sid = await createSession(svc, { policy_path: "slow.json", tool_timeout_ms: 150 });
    const started = Date.now();
    const events = await send(svc, sid, "Where is the archive?");
    expect(Date.now() - started).toBeLessThan(4_000); // the hook was killed, not waited for
    const outcome = dataOf<{ status: string; elapsed_ms: number; tool_call_id: string }>(events, "tool_outcome")[0]!;
    expect(outcome.status).toBe("timeout");
    expect(outcome.elapsed_ms).toBeGreaterThanOrEqual(140);
    expect(types(events)).not.toContain("tool_result");
    expect(types(events).at(-1)).toBe("completed");
    // The terminal tool_outcome is the call's last word: the killed hook logs nothing after it (issue 41).
    await new Promise((r) => setTimeout(r, 300));
    const log = await logOf(svc, sid);
    const end = log.findIndex((e) => e.event === "tool_outcome");
    const after = log
      .slice(end + 1)
      .filter((e) => (e.data as { tool_call_id?: string }).tool_call_id === outcome.tool_call_id);
    expect(after.map((e) => e.event)).toEqual([]);
  });

  it("writes files as artifacts inside the task workspace only, and lists them on the session", async () => {
    wire.script(
      callTools(
        { name: "file_write", args: '{"path":"notes/plan.md","content":"# Plan\\n"}' },
        { name: "file_write", args: '{"path":"../../escape.md","content":"x"}' },
      ),
      callTools({ name: "file_read", args: '{"path":"notes/plan.md"}' }),
      say("Written."),
    );
    const sid = await createSession(svc, { approval_mode: "never" });
    const events = await send(svc, sid, "Write a plan file");
    expect(dataOf(events, "tool_outcome").map((o) => [o.tool_name, o.status])).toEqual([
      ["file_write", "artifact"],
      ["file_write", "error"],
      ["file_read", "ok"],
    ]);
    expect(dataOf(events, "tool_outcome")[0]).toMatchObject({
      outcome_type: "file",
      result: { path: "notes/plan.md", bytes: 7 },
    });
    expect(dataOf(events, "tool_outcome")[2]).toMatchObject({ result: { content: "# Plan\n" } });
    expect(readFileSync(join(svc.config.sessionsDir, svc.workspaceId, sid, "notes/plan.md"), "utf8")).toBe("# Plan\n");
    const detail = (await (await svc.get(`/chat/sessions/${sid}`)).json()) as {
      background_artifacts: { type: string; path: string }[];
    };
    expect(detail.background_artifacts).toMatchObject([{ type: "file", path: "notes/plan.md" }]);
    // File tools run in the service itself, and the notice says so rather than naming the hooks' sandbox.
    expect(dataOf(events, "sandbox_notice")).toEqual([
      {
        requested_backend: "auto",
        resolved_backend: "in-process",
        isolation: expect.stringMatching(/^weaker: /),
        reason: expect.any(String),
      },
    ]);
  });

  it("refuses a file path through a symbolic link, even a dangling one that points outside", async () => {
    const sid = await createSession(svc, { approval_mode: "never" });
    const taskDir = join(svc.config.sessionsDir, svc.workspaceId, sid);
    const outside = join(svc.dataDir, "linked-outside.md");
    mkdirSync(taskDir, { recursive: true });
    symlinkSync(outside, join(taskDir, "out.md"));
    wire.script(callTools({ name: "file_write", args: '{"path":"out.md","content":"x"}' }), say("no"));
    const events = await send(svc, sid, "Write the out file");
    expect(dataOf(events, "tool_outcome")[0]).toMatchObject({
      status: "error",
      result: { error: { message: expect.stringContaining("symbolic link") } },
    });
    expect(existsSync(outside)).toBe(false);
  });

  it("does not offer file tools to a read-only session", async () => {
    wire.script(say("no files"));
    const sid = await createSession(svc, { permission_mode: "read-only" });
    const events = await send(svc, sid, "Write a plan file");
    expect(
      dataOf<{ tools: string[] }>(events, "turn_start_tools")[0]!.tools.filter((t) => t.startsWith("file_")),
    ).toEqual([]);
  });
});
