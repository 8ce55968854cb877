// The A2A bridge against a remote agent built with the same SDK: the task goes out and the answer comes back as the
// final output; a failed remote task fails the run; an unreachable agent is a transient failure the supervisor retries;
// a recovered run asks for the task it already sent instead of sending it again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2aPeer, type A2aPeer } from "../helpers/a2a-peer.ts";
import { freeFormCatalog } from "../helpers/catalog.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { dataOf, logOf, types } from "./support.ts";
import { startBackground, waitFor } from "./background-support.ts";

const HEARTBEAT = { SMRITI_SESSION_HEARTBEAT_MS: "100" };
/** Free-form A2A to the peer and to a closed port (an unreachable agent). */
const catalogFor = (peer: A2aPeer) => freeFormCatalog([new URL(peer.url).host, "127.0.0.1:9"]);

describe("the A2A bridge", () => {
  let peer: A2aPeer;
  let svc: TestService;
  beforeAll(async () => {
    peer = await startA2aPeer();
    svc = await startTestService({ env: HEARTBEAT, agentCatalog: catalogFor(peer) });
  });
  afterAll(async () => {
    await svc.cleanup();
    await peer.close();
  });

  it("delegates the task and keeps the remote answer, the remote task id and the reduced event set", async () => {
    const s = await startBackground(svc, {
      task: "summarise the week",
      engine: "a2a",
      agent_url: peer.url,
      approval_mode: "never",
    });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session.status).toBe("completed");
    expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "echo: summarise the week" });
    expect(done.artifacts.find((a) => a.remote_task_id)).toMatchObject({
      type: "run_record",
      engine: "a2a",
      agent_url: peer.url,
    });
    const log = await logOf(svc, s.session.session_id);
    expect(dataOf(log, "sandbox_notice")[0]).toMatchObject({ resolved_backend: "remote" });
    expect(dataOf(log, "policy_decision")[0]).toMatchObject({ subject: "a2a", outcome: "allow" });
    expect(types(log)).not.toContain("tool_call");
    expect(types(log)).not.toContain("step_progress");
    expect(peer.received).toContain("summarise the week");
  });

  it("fails the run when the remote task fails (not transient: no retry)", async () => {
    const s = await startBackground(svc, {
      task: "please fail",
      engine: "a2a",
      agent_url: peer.url,
      approval_mode: "never",
    });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "failed", attempt_count: 1 });
    // The state's name and a stable code, never the remote's own words.
    expect(done.session.last_error).toBe("a2a_task_failed: the remote agent's task ended TASK_STATE_FAILED");
  });

  it("retries an unreachable agent as a transient failure, then fails past max_retries", async () => {
    const s = await startBackground(svc, {
      task: "t",
      engine: "a2a",
      agent_url: "http://127.0.0.1:9/",
      approval_mode: "never",
      max_retries: 1,
    });
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "failed", attempt_count: 2 });
    expect(dataOf(await logOf(svc, s.session.session_id), "session_state").map((x) => x.status)).toEqual([
      "queued",
      "running",
      "recovering",
      "running",
      "failed",
    ]);
  });

  it("after a restart, waits for the remote task it sent instead of sending the task again", async () => {
    const first = await startTestService({ env: HEARTBEAT, agentCatalog: catalogFor(peer) });
    const s = await startBackground(first, {
      task: "slow job",
      engine: "a2a",
      agent_url: peer.url,
      approval_mode: "never",
    });
    const sid = s.session.session_id;
    // Sent and held by the remote agent: the remote task id is logged before the answer.
    for (
      let d = await waitFor(first, sid, ["running"]);
      !d.artifacts.some((a) => a.remote_task_id);
      d = await waitFor(first, sid, ["running"])
    )
      await new Promise((r) => setTimeout(r, 20));
    await first.runtime.close();
    const second = await startTestService({ env: HEARTBEAT, dataDir: first.dataDir, agentCatalog: catalogFor(peer) });
    try {
      await waitFor(second, sid, ["running"]);
      peer.release();
      const done = await waitFor(second, sid, ["completed", "failed"]);
      expect(done.session).toMatchObject({ status: "completed", attempt_count: 2 });
      expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "echo: slow job" });
      expect(peer.received.filter((t) => t === "slow job")).toHaveLength(1);
    } finally {
      await second.cleanup();
    }
  });
});
