// Every session route refuses bad input, missing and foreign tokens, unknown sessions and a message during a running
// turn with a stable code, and logs nothing for a refused request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { openSse, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { openDbReader, type DbReader } from "../helpers/db-reader.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, errorCode, expectNotFound, expectUnauthorized, readSse } from "./support.ts";

describe("session routes refuse bad requests", () => {
  let wire: ChatServer;
  let svc: TestService;
  let foreign: string;
  let sid: string;
  let db: DbReader;
  const logged = () => db.number("SELECT COUNT(*) FROM stream_events");
  const code = errorCode;
  beforeAll(async () => {
    wire = await startChatServer();
    svc = await startTestService({
      multiTenant: true,
      env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base },
    });
    foreign = (await svc.issueToken("other-team")).token;
    sid = await createSession(svc);
    db = await openDbReader(svc.config);
  });
  afterAll(async () => {
    await db.close();
    await svc.cleanup();
    await wire.close();
  });

  /** Each route with a request it would accept. */
  const routes = () =>
    [
      ["POST", "/chat/sessions", {}],
      ["GET", `/chat/sessions/${sid}`, null],
      ["POST", `/chat/sessions/${sid}/branch`, { from_event_id: `${sid}/1` }],
      ["POST", `/chat/sessions/${sid}/messages`, { message: "hi" }],
      ["POST", `/chat/sessions/${sid}/approvals/apr_00000000-0000-0000-0000-000000000000`, { decision: "approve" }],
      ["GET", `/sessions/${sid}/events/stream?follow=false`, null],
    ] as const;

  it("401 without a token or with a bad one, for every route", async () => {
    const before = await logged();
    await expectUnauthorized(svc, routes());
    expect(await logged()).toBe(before);
  });

  it("404 for another workspace's session and for an unknown one, on every session route", async () => {
    const before = await logged();
    await expectNotFound(svc, routes().slice(1), sid, foreign);
    expect(await logged()).toBe(before);
  });

  it("400 for malformed JSON and wrong types, 413 for an oversize body, on every POST", async () => {
    const before = await logged();
    const wrong: Record<string, object> = {
      "/chat/sessions": { permission_mode: "root", tool_timeout_ms: "soon" },
      branch: { from_event_id: 12 },
      messages: { message: ["hi"] },
      approvals: { decision: "maybe" },
    };
    for (const [method, path, body] of routes()) {
      if (method !== "POST") continue;
      expect(await code(await svc.post(path, "{not json")), path).toEqual([400, "malformed_json"]);
      const key = Object.keys(wrong).find((k) => path.endsWith(k) || path.includes(`/${k}`))!;
      expect(await code(await svc.post(path, wrong[key])), path).toEqual([400, "invalid_request"]);
      expect(await code(await svc.post(path, { ...body, padding: "x".repeat(limits.maxBodyBytes) })), path).toEqual([
        413,
        "payload_too_large",
      ]);
    }
    expect(await code(await svc.get(`/sessions/${sid}/events/stream`, { follow: "perhaps" }))).toEqual([
      400,
      "invalid_request",
    ]);
    expect(await code(await svc.get("/chat/sessions/not-a-session"))).toEqual([400, "invalid_request"]);
    expect(await logged()).toBe(before);
  });

  it("409 turn_in_progress for a message or a decision while a turn runs, and a bad Last-Event-ID is refused", async () => {
    let release = () => {};
    wire.script((res) => {
      openSse(res);
      release = () =>
        res.end(
          'data: {"choices":[{"index":0,"delta":{"content":"late"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
        );
    });
    const asked = wire.requests.length;
    const first = await svc.post(`/chat/sessions/${sid}/messages`, { message: "slow one" });
    await expect.poll(() => wire.requests.length).toBe(asked + 1); // the turn waits on the model
    const before = await logged();
    expect(await code(await svc.post(`/chat/sessions/${sid}/messages`, { message: "another" }))).toEqual([
      409,
      "turn_in_progress",
    ]);
    expect(await logged()).toBe(before);
    release();
    const events = await readSse(first);
    expect(events.at(-1)!.event).toBe("completed");
    const other = await createSession(svc);
    const resume = (id: string) =>
      svc.get(`/sessions/${sid}/events/stream`, { follow: "false" }, { "last-event-id": id });
    expect(await code(await resume(`${other}/1`))).toEqual([400, "event_not_in_session"]);
    expect(await code(await resume(`${sid}/99999`))).toEqual([404, "not_found"]);
    expect(await code(await resume("nonsense"))).toEqual([400, "invalid_request"]);
  });
});
