// An operator's cancel logged by another process (a replica where the run is not live) at the worst moment of a run: as
// it starts, and as it begins to wait for an approval. The cancel stands: the run neither starts nor waits, and the
// session ends once; and two first runs of one AG-UI thread opening its session at once. The store is real; the other
// process's write is put in the log between this one's read and its write.
import { afterEach, describe, expect, it } from "vitest";
import type { StreamEventDraft } from "../../src/ports/event-log.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { SessionLog } from "../../src/sessions/log/session-log.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { act, detailOf, startBackground, startScript, waitFor } from "./background-support.ts";
import { dataOf, logOf } from "./support.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Logs a cancel of the session, as a replica's operator request does, just before the first write that `when` picks. */
function cancelBefore(svc: TestService, when: (drafts: readonly StreamEventDraft[]) => boolean): void {
  const streams = svc.runtime.store.streams;
  const append = streams.appendStream.bind(streams);
  const elsewhere = new SessionLog(streams, svc.runtime.store.sessions, systemClock);
  let done = false;
  streams.appendStream = async (...args: Parameters<typeof append>) => {
    if (!done && when(args[2])) {
      done = true;
      const state = dataOf(await logOf(svc, args[1]), "session_state").at(-1)!;
      const at = new Date().toISOString();
      await elsewhere.appendAll(args[0], args[1], [
        { type: "session_state", data: { ...state, status: "cancelled", updated_at: at, ended_at: at } },
      ]);
    }
    return append(...args);
  };
}
const has = (type: string, status?: string) => (drafts: readonly StreamEventDraft[]) =>
  drafts.some((d) => d.type === type && (status === undefined || (d.data as { status: string }).status === status));

async function settled(svc: TestService, sid: string): Promise<string[]> {
  await expect.poll(() => svc.runtime.supervisor.isLive(svc.workspaceId, sid), { timeout: 10_000 }).toBe(false);
  return dataOf(await logOf(svc, sid), "session_state").map((x) => x.status as string);
}

describe("an operator's cancel from another process", () => {
  let svc: TestService;
  afterEach(() => svc.cleanup());

  it("as the run starts: the run does not start", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    cancelBefore(svc, has("session_state", "running"));
    const s = await startScript(svc, "echo ran", "never");
    const sid = s.session.session_id;
    expect(await settled(svc, sid)).toEqual(["queued", "cancelled"]);
    expect(dataOf(await logOf(svc, sid), "session_checkpoint").map((c) => c.checkpoint_type)).not.toContain(
      "run_record",
    );
  });

  it("as a bridged command begins to wait for approval: it does not wait", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    cancelBefore(svc, has("approval_required"));
    const s = await startScript(svc, "echo ran", "always");
    const sid = s.session.session_id;
    expect(await settled(svc, sid)).toEqual(["queued", "running", "cancelled"]);
    expect(dataOf(await logOf(svc, sid), "approval_required")).toEqual([]);
    expect((await detailOf(svc, sid)).pending_approval).toBeNull();
  });

  it("as a native run's tool call begins to wait for approval: it does not wait, and its turn is closed", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    cancelBefore(svc, has("approval_required"));
    const s = await startBackground(svc, {
      task: "Remember that the deploy window is Friday evening.",
      approval_mode: "on-write",
    });
    const sid = s.session.session_id;
    expect(await settled(svc, sid)).toEqual(["queued", "running", "cancelled"]);
    const log = await logOf(svc, sid);
    expect(dataOf(log, "approval_required")).toEqual([]);
    expect(dataOf(log, "turn_end").map((e) => e.status)).toEqual(["cancelled"]);
  });

  it("as a paused session is resumed: the resume is refused and the session stays cancelled", async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "50" } });
    const s = await startScript(svc, "sleep 20", "never");
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    expect((await act(svc, sid, "pause")).status).toBe(200);
    cancelBefore(svc, has("session_state", "queued"));
    const res = await act(svc, sid, "resume");
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_transition");
    expect(await settled(svc, sid)).toEqual(["queued", "running", "paused", "cancelled"]);
  });
});

describe("two first runs of one AG-UI thread at once", () => {
  it("open its session once: one opening state, both in the same session", async () => {
    const svc = await startTestService();
    try {
      // Both find the thread's session missing before either has opened it.
      const streams = svc.runtime.store.streams;
      const read = streams.readStream.bind(streams);
      streams.readStream = async (...args: Parameters<typeof read>) => {
        const out = await read(...args);
        await sleep(100);
        return out;
      };
      const call = {
        workspaceId: svc.workspaceId,
        workspaceName: "default",
        tokenId: "tok_test",
        actorId: null,
        scopes: ["read", "write"] as const,
      };
      const [a, b] = await Promise.all([
        svc.runtime.chatThread(call, "thread-at-once"),
        svc.runtime.chatThread(call, "thread-at-once"),
      ]);
      expect(a).toBe(b);
      streams.readStream = read;
      expect(dataOf(await logOf(svc, a), "session_state")).toHaveLength(1);
    } finally {
      await svc.cleanup();
    }
  });
});
