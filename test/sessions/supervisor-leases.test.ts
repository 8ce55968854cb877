// The supervisor's leases around a run that ends while the next run of the same session begins (an approval decided at
// once), and around a run another process took over while this one could not reach the store. The store is real; only
// the timing of its calls is held, to open the window a slow or restarting database opens.
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/ports/clock.ts";
import type { SessionKey } from "../../src/ports/session-index.ts";
import { SessionLog } from "../../src/sessions/log/session-log.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { act, detailOf, startScript, waitFor } from "./background-support.ts";
import { dataOf, logOf } from "./support.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runs = async (svc: TestService, sid: string) =>
  dataOf(await logOf(svc, sid), "session_state").filter((s) => s.status === "running").length;

describe("supervisor leases", () => {
  let svc: TestService;
  afterEach(() => svc.cleanup());

  it("a heartbeat answered after a run gave its lease back does not stop the session's next run", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const index = svc.runtime.store.sessions;
    const release = index.releaseSessions.bind(index);
    const heartbeat = index.heartbeatSessions.bind(index);
    let released = false;
    let releasing = false;
    // The lease goes back at once, but the run stays in the supervisor's hands a while longer (a slow database).
    index.releaseSessions = async (owner: string, keys: readonly SessionKey[]) => {
      await release(owner, keys);
      released = releasing = true;
      await sleep(400);
      releasing = false;
    };
    let sid = "";
    // A heartbeat sent once the lease is back finds it lost; its answer comes when the next run has begun.
    index.heartbeatSessions = async (owner: string, keys: readonly SessionKey[], at: number) => {
      const lost = await heartbeat(owner, keys, at);
      if (released && keys.some((k) => k.sessionId === sid))
        for (let i = 0; i < 100 && (await runs(svc, sid)) < 2; i++) await sleep(20);
      return lost;
    };
    const s = await startScript(svc, "sleep 0.3; echo approved", "always");
    sid = s.session.session_id;
    const waiting = await waitFor(svc, sid, ["awaiting_approval"]);
    await svc.post(`/sessions/${sid}/approvals/${waiting.session.approval_request_id}`, { decision: "approve" });
    expect(releasing).toBe(true); // decided while the first run, its lease given back, was still in the supervisor's hands
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "completed", attempt_count: 2 });
    expect(done.artifacts[0]).toMatchObject({ type: "final_output", text: "approved\n" });
    const log = await logOf(svc, sid);
    // The approved command ran once: no run was cut short as lost and recovered into a third.
    expect(dataOf(log, "policy_decision").map((d) => d.outcome)).toEqual(["ask", "allow"]);
    expect(dataOf(log, "session_state").map((x) => x.status)).toEqual([
      "queued",
      "running",
      "awaiting_approval",
      "queued",
      "running",
      "completed",
    ]);
  });

  it("a cancel that comes as a run begins to wait for approval stands", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const index = svc.runtime.store.sessions;
    const release = index.releaseSessions.bind(index);
    index.releaseSessions = async (owner: string, keys: readonly SessionKey[]) => {
      await sleep(300); // the run has logged its wait but not yet left the supervisor
      await release(owner, keys);
    };
    const s = await startScript(svc, "echo never", "always");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["awaiting_approval"]);
    const res = await act(svc, sid, "cancel");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { session: { status: string } }).session.status).toBe("cancelled");
    await sleep(400);
    expect((await waitFor(svc, sid, ["cancelled", "completed", "failed"])).session.status).toBe("cancelled");
  });

  it("a run another process took over and ended while this one was cut off from the store logs no second end", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const index = svc.runtime.store.sessions;
    // This process's heartbeats do not reach the store (a restart under way): to other processes its run looks dead.
    index.heartbeatSessions = () => Promise.reject(new Error("Connection terminated unexpectedly"));
    const s = await startScript(svc, "sleep 0.6; exit 3", "never");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    // Another replica's scan finds the run stale and, with no retries left, ends it: failed, and its error.
    const elsewhere = new SessionLog(svc.runtime.store.streams, index, systemClock);
    const state = dataOf(await logOf(svc, sid), "session_state").at(-1)!;
    const at = new Date().toISOString();
    await elsewhere.appendAll(svc.workspaceId, sid, [
      {
        type: "session_state",
        data: { ...state, status: "failed", last_error: "taken over", updated_at: at, ended_at: at },
      },
      { type: "error", data: { code: "retries_exhausted", message: "taken over", turn_id: null } },
    ]);
    // The command exits (a failure of its own); this process settles the run it still holds.
    for (let i = 0; i < 200 && svc.runtime.supervisor.isLive(svc.workspaceId, sid); i++) await sleep(20);
    expect(svc.runtime.supervisor.isLive(svc.workspaceId, sid)).toBe(false);
    const log = await logOf(svc, sid);
    expect(dataOf(log, "session_state").map((x) => x.status)).toEqual(["queued", "running", "failed"]);
    expect(dataOf(log, "error").map((e) => e.message)).toEqual(["taken over"]);
    expect((await detailOf(svc, sid)).session).toMatchObject({ status: "failed", last_error: "taken over" });
  });

  it("a cancel decided on a run that ended elsewhere meanwhile is refused, not logged as a second end", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const s = await startScript(svc, "sleep 0.6; echo done", "never");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    // The run is not this process's to stop (another replica's), and it completes as the cancel is decided.
    const supervisor = svc.runtime.supervisor;
    const elsewhere = new SessionLog(svc.runtime.store.streams, svc.runtime.store.sessions, systemClock);
    supervisor.stop = async (workspaceId: string, sessionId: string) => {
      const state = dataOf(await logOf(svc, sessionId), "session_state").at(-1)!;
      const at = new Date().toISOString();
      await elsewhere.appendAll(workspaceId, sessionId, [
        { type: "session_state", data: { ...state, status: "completed", updated_at: at, ended_at: at } },
      ]);
      return false;
    };
    const res = await act(svc, sid, "cancel");
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_transition");
    for (let i = 0; i < 200 && supervisor.isLive(svc.workspaceId, sid); i++) await sleep(20);
    const states = dataOf(await logOf(svc, sid), "session_state").map((x) => x.status);
    expect(states).toEqual(["queued", "running", "completed"]);
  });

  it("of two operators deciding one approval at once, one decides and the other is told it is settled", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const s = await startScript(svc, "echo approved", "always");
    const sid = s.session.session_id;
    const waiting = await waitFor(svc, sid, ["awaiting_approval"]);
    // Each conditional write waits a moment, so both decisions have read the waiting session before either writes.
    const streams = svc.runtime.store.streams;
    const append = streams.appendStream.bind(streams);
    streams.appendStream = async (...args: Parameters<typeof append>) => {
      if (args[1] === sid && args[3] !== undefined) await sleep(150);
      return append(...args);
    };
    const decide = (decision: string) =>
      svc.post(`/sessions/${sid}/approvals/${waiting.session.approval_request_id}`, { decision });
    const answers = await Promise.all([decide("approve"), decide("deny")]);
    const codes = await Promise.all(
      answers.map(async (r) => (r.status === 200 ? 200 : ((await r.json()) as { error: { code: string } }).error.code)),
    );
    expect(codes.sort()).toEqual([200, "approval_settled"]);
    streams.appendStream = append;
    const done = await waitFor(svc, sid, ["completed", "failed"]);
    const log = await logOf(svc, sid);
    expect(dataOf(log, "approval_applied")).toHaveLength(1);
    expect(dataOf(log, "session_state").filter((x) => x.status === "queued")).toHaveLength(2); // the start, the decision
    expect(done.session.status).toBe(
      dataOf(log, "approval_applied")[0]!.decision === "approve" ? "completed" : "failed",
    );
  });

  it("an operator's cancel lands while the run streams output on another replica without pause", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const s = await startScript(svc, "sleep 30; echo never", "never");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    const supervisor = svc.runtime.supervisor;
    supervisor.stop = async () => false; // the run is another replica's
    // That replica logs output between every read and write of the cancel: each would find the log moved on.
    const elsewhere = new SessionLog(svc.runtime.store.streams, svc.runtime.store.sessions, systemClock);
    const streams = svc.runtime.store.streams;
    const append = streams.appendStream.bind(streams);
    let streamed = 0;
    streams.appendStream = async (...args: Parameters<typeof append>) => {
      if (args[1] === sid && args[3] !== undefined) {
        await elsewhere.append(svc.workspaceId, sid, "token", { turn_id: "turn_elsewhere", text: "output " });
        streamed++;
      }
      return append(...args);
    };
    const res = await act(svc, sid, "cancel");
    expect(res.status).toBe(200);
    streams.appendStream = append;
    expect(streamed).toBe(1);
    await expect.poll(() => supervisor.isLive(svc.workspaceId, sid), { timeout: 10_000 }).toBe(false);
    const log = await logOf(svc, sid);
    expect(dataOf(log, "session_state").map((x) => x.status)).toEqual(["queued", "running", "cancelled"]);
    expect(log.findIndex((e) => e.event === "token")).toBeLessThan(log.length - 1);
  });

  it("a run whose session another replica cancelled stops within a few beats and logs nothing more", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const s = await startScript(svc, "sleep 30; echo never", "never");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    // The operator's cancel, as a replica where the run is not live logs it.
    const elsewhere = new SessionLog(svc.runtime.store.streams, svc.runtime.store.sessions, systemClock);
    const state = dataOf(await logOf(svc, sid), "session_state").at(-1)!;
    const at = new Date().toISOString();
    await elsewhere.appendAll(svc.workspaceId, sid, [
      { type: "session_state", data: { ...state, status: "cancelled", updated_at: at, ended_at: at } },
    ]);
    const supervisor = svc.runtime.supervisor;
    await expect.poll(() => supervisor.isLive(svc.workspaceId, sid), { timeout: 10_000 }).toBe(false);
    const log = await logOf(svc, sid);
    expect(dataOf(log, "session_state").map((x) => x.status)).toEqual(["queued", "running", "cancelled"]);
    expect((await detailOf(svc, sid)).session.status).toBe("cancelled");
  });

  it("a run whose start is slow to be logged is not taken for a session ended elsewhere", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    // The run's state and record take a while to be logged: heartbeats and budget checks come in between.
    const streams = svc.runtime.store.streams;
    const append = streams.appendStream.bind(streams);
    streams.appendStream = async (...args: Parameters<typeof append>) => {
      const drafts = args[2];
      if (drafts.some((d) => d.type === "session_state" && (d.data as { status: string }).status === "running"))
        await sleep(300);
      return append(...args);
    };
    const s = await startScript(svc, "sleep 0.3; echo once", "never");
    const done = await waitFor(svc, s.session.session_id, ["completed", "failed"]);
    expect(done.session).toMatchObject({ status: "completed", attempt_count: 1 });
    const states = dataOf(await logOf(svc, s.session.session_id), "session_state").map((x) => x.status);
    expect(states).toEqual(["queued", "running", "completed"]);
  });
});
