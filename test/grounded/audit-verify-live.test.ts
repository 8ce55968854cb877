// `verify` on a live service: events appended while it reads (a write between its last page and its head read) (each with its head, in one write) are not a break;
// an event past the newest head (written without it) is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditLog, EventDraft } from "../../src/ports/audit-log.ts";
import { AuditService } from "../../src/services/audit/audit.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const draft = (n: number): EventDraft => ({
  type: "test.live",
  actorId: null,
  tokenId: null,
  at: Date.now(),
  trajectoryId: null,
  payload: { n },
});

describe("audit verify beside live appends", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    await svc.runtime.store.audit.appendEvents(
      svc.workspaceId,
      Array.from({ length: 5 }, (_, i) => draft(i)),
    );
  });
  afterAll(() => svc.cleanup());

  it("checks the chain up to the head it read and finds no break", async () => {
    const store = svc.runtime.store;
    let appended = 0;
    // A writer appends (events and head together) each time the reader asks for the head: after its pages, the race.
    const append = async () =>
      void (appended++ < 3 && (await store.audit.appendEvents(svc.workspaceId, [draft(100 + appended)])));
    const live: AuditLog = new Proxy(store.audit, {
      get: (target, key, receiver) => {
        if (key === "eventHead") return async (ws: string) => (await append(), target.eventHead(ws));
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const result = await new AuditService(live, { now: () => new Date() }).verify(svc.workspaceId);
    expect(appended).toBeGreaterThan(0);
    expect(result.break).toBeNull();
    expect(result.events).toBe((await store.audit.eventHead(svc.workspaceId))!.seq);
  });

  it("still reports an event past the newest head as a break", async () => {
    const store = svc.runtime.store;
    const head = (await store.audit.eventHead(svc.workspaceId))!;
    // An event the head does not cover: a store whose head read lags one event behind its log.
    const stale: AuditLog = new Proxy(store.audit, {
      get: (target, key, receiver) =>
        key === "eventHead" ? async () => ({ ...head }) : (Reflect.get(target, key, receiver) as unknown),
    });
    await store.audit.appendEvents(svc.workspaceId, [draft(999)]);
    const result = await new AuditService(stale, { now: () => new Date() }).verify(svc.workspaceId);
    expect(result.break).toEqual({ seq: head.seq, reason: "head_mismatch" });
  });
});
