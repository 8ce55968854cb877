// A background session through HTTP with the extractive agent: queued -> running -> completed, its artifacts,
// checkpoints, step progress and the background fields of session_state.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionEvents, type SessionEventType } from "../../src/contract/events.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { dataOf, logOf, types } from "./support.ts";
import { NOTE, startBackground, waitFor } from "./background-support.ts";

describe("a background session with the native engine", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
    expect((await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  it("runs the task to completed with artifacts, checkpoints, step progress and health", async () => {
    const writes = vi.spyOn(svc.runtime.store.streams, "appendStream");
    const started = await startBackground(svc, { task: "Who picked PostgreSQL?", approval_mode: "never" });
    // Queued and prepared in one write: a supervisor scanning for queued sessions never finds it without its workspace.
    const first = writes.mock.calls.find(([, stream]) => stream === started.session.session_id)!;
    writes.mockRestore();
    expect(first[2].map((d) => [d.type, (d.data as { checkpoint_type?: string }).checkpoint_type])).toEqual([
      ["session_state", undefined],
      ["session_checkpoint", "task_graph"],
      ["session_checkpoint", "task_workspace"],
    ]);
    expect(started.session).toMatchObject({
      engine: "native",
      runner_kind: "supervisor",
      max_retries: 2,
      task_graph_id: expect.stringMatching(/^tg_/),
    });
    expect(started.health.flags).toBeDefined();
    const done = await waitFor(svc, started.session.session_id, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    expect(done.session.attempt_count).toBe(1);
    expect(done.session.ended_at).toBeTruthy();
    expect(done.artifacts.map((a) => a.type)).toEqual(["final_output", "run_record", "task_workspace", "task_graph"]);
    expect(String(done.artifacts[0]!.text)).toMatch(/^Alice/);
    expect(done.health.memory_provenance[0]).toMatchObject({ source_path: "storage.md" });
    const log = await logOf(svc, started.session.session_id);
    for (const e of log)
      expect(sessionEvents[e.event as SessionEventType].data.safeParse(e.data).success, e.event).toBe(true);
    expect(types(log)).toContain("step_progress");
    expect(dataOf(log, "session_state").map((s) => s.status)).toEqual(["queued", "running", "completed"]);
    expect(types(log).at(-1)).toBe("completed");
  });
});
