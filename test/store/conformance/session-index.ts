// The SessionIndex port: a row per session (status, state, heartbeat), listed newest first with filters and keyset
// pages, scanned across workspaces by kind and status, kept apart per workspace.
import { describe, expect, it } from "vitest";
import type { SessionRow } from "../../../src/ports/session-index.ts";
import { T0 } from "../../helpers/documents.ts";
import { storeHandles, type StoreFactory } from "./support.ts";

const row = (
  workspaceId: string,
  sessionId: string,
  kind: SessionRow["kind"],
  status: string,
  at = T0,
): SessionRow => ({
  workspaceId,
  sessionId,
  kind,
  status,
  state: { session_id: sessionId, status },
  stateSeq: at,
  createdAt: at,
  updatedAt: at,
  heartbeatAt: null,
});

export function runSessionIndexSuite(name: string, makeStore: StoreFactory): void {
  describe(`SessionIndex conformance: ${name}`, () => {
    const { twoWorkspaces } = storeHandles(makeStore);

    it("updates a row in place (status, state, time; creation time and order kept) and lists newest first with filters and pages", async () => {
      const { store, a } = await twoWorkspaces();
      await store.sessions.upsertSession(row(a, "s1", "background", "queued", T0));
      await store.sessions.upsertSession(row(a, "s2", "chat", "idle", T0 + 1));
      await store.sessions.upsertSession(row(a, "s3", "background", "queued", T0 + 2));
      await store.sessions.upsertSession({
        ...row(a, "s1", "background", "running", T0 + 9),
        state: { session_id: "s1", status: "running", attempt_count: 1 },
      });
      const s1 = await store.sessions.getSession(a, "s1");
      expect(s1).toMatchObject({ status: "running", createdAt: T0, updatedAt: T0 + 9, state: { attempt_count: 1 } });
      expect((await store.sessions.listSessions(a, { limit: 10 })).map((r) => r.sessionId)).toEqual(["s3", "s2", "s1"]);
      expect((await store.sessions.listSessions(a, { kind: "background", limit: 10 })).map((r) => r.sessionId)).toEqual(
        ["s3", "s1"],
      );
      expect((await store.sessions.listSessions(a, { status: "running", limit: 10 })).map((r) => r.sessionId)).toEqual([
        "s1",
      ]);
      const first = await store.sessions.listSessions(a, { limit: 2 });
      expect(
        (await store.sessions.listSessions(a, { limit: 2, beforeSeq: first.at(-1)!.seq })).map((r) => r.sessionId),
      ).toEqual(["s1"]);
    });

    it("moves a row only forward: a mirror of an older state that lands late changes nothing", async () => {
      const { store, a } = await twoWorkspaces();
      await store.sessions.upsertSession(row(a, "s", "background", "running", T0 + 5));
      await store.sessions.upsertSession(row(a, "s", "background", "completed", T0 + 7));
      await store.sessions.upsertSession(row(a, "s", "background", "paused", T0 + 6));
      await store.sessions.upsertSession(row(a, "s", "background", "failed", T0 + 7));
      expect(await store.sessions.getSession(a, "s")).toMatchObject({
        status: "completed",
        stateSeq: T0 + 7,
        updatedAt: T0 + 7,
        state: { status: "completed" },
      });
      expect(await store.sessions.sessionsInStatus("background", ["paused", "failed"])).toEqual([]);
    });

    it("keeps heartbeats (an upsert without one keeps the last), scans by kind and status across workspaces, and keeps workspaces apart", async () => {
      const { store, a, b } = await twoWorkspaces();
      await store.sessions.upsertSession(row(a, "x", "background", "running"));
      await store.sessions.upsertSession(row(b, "y", "background", "recovering"));
      await store.sessions.upsertSession(row(b, "z", "chat", "running"));
      expect(await store.sessions.claimSession({ workspaceId: a, sessionId: "x" }, "host:1", T0 + 40, T0)).toBe(true);
      expect(await store.sessions.heartbeatSessions("host:1", [{ workspaceId: a, sessionId: "x" }], T0 + 50)).toEqual(
        [],
      );
      await store.sessions.upsertSession(row(a, "x", "background", "running", T0 + 60));
      expect((await store.sessions.getSession(a, "x"))!.heartbeatAt).toBe(T0 + 50);
      const scanned = await store.sessions.sessionsInStatus("background", ["running", "recovering"]);
      expect(scanned.map((r) => [r.workspaceId, r.sessionId])).toEqual([
        [a, "x"],
        [b, "y"],
      ]);
      expect(await store.sessions.getSession(b, "x")).toBeUndefined();
      expect(await store.sessions.listSessions(b, { kind: "background", limit: 10 })).toHaveLength(1);
    });

    it("leases a run to one owner at a time: taken when free, its own, or its holder's heartbeat went stale; released by its holder only", async () => {
      const { store, a } = await twoWorkspaces();
      const x = { workspaceId: a, sessionId: "x" };
      await store.sessions.upsertSession(row(a, "x", "background", "queued"));
      expect(await store.sessions.claimSession(x, "host:1", T0 + 10, T0)).toBe(true);
      expect(await store.sessions.getSession(a, "x")).toMatchObject({ owner: "host:1", heartbeatAt: T0 + 10 });
      expect(await store.sessions.claimSession(x, "host:2", T0 + 20, T0 + 5)).toBe(false); // heartbeat at +10 is fresh for it
      expect(await store.sessions.claimSession(x, "host:1", T0 + 30, T0 + 5)).toBe(true); // its own
      expect(await store.sessions.heartbeatSessions("host:2", [x], T0 + 40)).toEqual([x]); // not its lease: not beaten
      expect((await store.sessions.getSession(a, "x"))!.heartbeatAt).toBe(T0 + 30);
      expect(await store.sessions.claimSession(x, "host:2", T0 + 100, T0 + 31)).toBe(true); // host:1 went quiet
      expect(await store.sessions.heartbeatSessions("host:1", [x], T0 + 110)).toEqual([x]); // host:1 learns it lost the run
      // host:1 is known dead: host:3 may take over from it, but host:2 got there first, so the lease stays with host:2.
      expect(await store.sessions.claimSession(x, "host:3", T0 + 120, T0 + 31, "host:1")).toBe(false);
      expect(await store.sessions.claimSession(x, "host:3", T0 + 120, T0 + 31, "host:2")).toBe(true);
      expect(await store.sessions.claimSession(x, "host:2", T0 + 130, T0 + 31, "host:9")).toBe(false);
      await store.sessions.releaseSessions("host:3", [x]);
      expect(await store.sessions.claimSession(x, "host:2", T0 + 140, T0)).toBe(true);
      await store.sessions.releaseSessions("host:1", [x]);
      expect((await store.sessions.getSession(a, "x"))!.owner).toBe("host:2");
      await store.sessions.releaseSessions("host:2", [x]);
      expect((await store.sessions.getSession(a, "x"))!.owner).toBeNull();
      expect(await store.sessions.claimSession({ workspaceId: a, sessionId: "nope" }, "host:1", T0, T0)).toBe(false);
    });
  });
}
