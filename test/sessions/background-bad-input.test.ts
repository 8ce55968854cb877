// Every background-session route refuses a missing or bad token, another workspace's session, an unknown one,
// malformed JSON, wrong types and oversize bodies with a stable code, and writes nothing for a refused request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { openDbReader, type DbReader } from "../helpers/db-reader.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { startBackground, waitFor } from "./background-support.ts";
import { errorCode, expectNotFound, expectUnauthorized } from "./support.ts";

const UNKNOWN = "ses_00000000-0000-0000-0000-000000000000";
const REQUEST = "apr_00000000-0000-0000-0000-000000000000";

describe("background session routes refuse bad requests", () => {
  let svc: TestService;
  let foreign: string;
  let sid: string;
  let db: DbReader;
  const written = () => db.number("SELECT (SELECT COUNT(*) FROM stream_events) + (SELECT COUNT(*) FROM sessions)");
  const code = errorCode;
  beforeAll(async () => {
    svc = await startTestService({ multiTenant: true, env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
    foreign = (await svc.issueToken("other-team")).token;
    sid = (
      await startBackground(svc, {
        task: "t",
        engine: "command",
        command: ["sh", "-c", "echo done"],
        approval_mode: "never",
      })
    ).session.session_id;
    await waitFor(svc, sid, ["completed"]);
    db = await openDbReader(svc.config);
  });
  afterAll(async () => {
    await db.close();
    await svc.cleanup();
  });

  /** Each route with a request it would accept (for a session in the right state). */
  const routes = () =>
    [
      ["POST", "/sessions", { task: "t" }],
      ["GET", "/sessions", null],
      ["GET", `/sessions/${sid}`, null],
      ["POST", `/sessions/${sid}/pause`, {}],
      ["POST", `/sessions/${sid}/resume`, {}],
      ["POST", `/sessions/${sid}/cancel`, {}],
      ["POST", `/sessions/${sid}/approvals/${REQUEST}`, { decision: "approve" }],
      ["GET", `/sessions/${sid}/health/stream`, null],
    ] as const;

  it("401 without a token or with a bad one, for every route", async () => {
    const before = await written();
    await expectUnauthorized(svc, routes());
    expect(await written()).toBe(before);
  });

  it("404 for another workspace's session and for an unknown one, on every session route", async () => {
    const before = await written();
    await expectNotFound(svc, routes().slice(2), sid, foreign);
    // The other workspace's list does not show it.
    const theirs = (await (
      await svc.app.request("/sessions", { headers: { authorization: `Bearer ${foreign}` } })
    ).json()) as { sessions: unknown[] };
    expect(theirs.sessions).toEqual([]);
    expect(await written()).toBe(before);
  });

  it("400 for malformed JSON and wrong types, 413 for an oversize body, on every POST; 400 for bad list parameters", async () => {
    const before = await written();
    const wrong: Record<string, object> = {
      "/sessions": { task: 42, max_retries: "many" },
      pause: { force: true },
      resume: { from_event_id: "nope", resume_cursor: 3 },
      cancel: { extra: true },
      approvals: { decision: "maybe" },
    };
    for (const [method, path, body] of routes()) {
      if (method !== "POST") continue;
      expect(await code(await svc.post(path, "{not json")), path).toEqual([400, "malformed_json"]);
      const key = Object.keys(wrong).find((k) => path.endsWith(k) || path.includes(`/${k}/`))!;
      expect(await code(await svc.post(path, wrong[key])), path).toEqual([400, "invalid_request"]);
      expect(await code(await svc.post(path, { ...body, padding: "x".repeat(limits.maxBodyBytes) })), path).toEqual([
        413,
        "payload_too_large",
      ]);
    }
    expect(await code(await svc.get("/sessions", { status: "asleep" }))).toEqual([400, "invalid_request"]);
    expect(await code(await svc.get("/sessions", { cursor: "page-2" }))).toEqual([400, "invalid_cursor"]);
    expect(await code(await svc.get("/sessions", { limit: "0" }))).toEqual([400, "invalid_request"]);
    expect(await code(await svc.get("/sessions/not-a-session"))).toEqual([400, "invalid_request"]);
    expect(await written()).toBe(before);
  });

  it("409 for transitions the state table does not allow, 404 for an unknown approval, writing nothing", async () => {
    const before = await written();
    expect(await code(await svc.post(`/sessions/${sid}/pause`, {}))).toEqual([409, "invalid_transition"]);
    expect(await code(await svc.post(`/sessions/${sid}/resume`, {}))).toEqual([409, "invalid_transition"]);
    expect(await code(await svc.post(`/sessions/${sid}/cancel`, {}))).toEqual([409, "invalid_transition"]);
    expect(await code(await svc.post(`/sessions/${sid}/approvals/${REQUEST}`, { decision: "approve" }))).toEqual([
      404,
      "not_found",
    ]);
    expect(await code(await svc.post(`/sessions/${sid}/resume`, { from_event_id: `${UNKNOWN}/1` }))).toEqual([
      400,
      "event_not_in_session",
    ]);
    expect(await code(await svc.post(`/sessions/${sid}/resume`, { from_event_id: `${sid}/9999` }))).toEqual([
      404,
      "not_found",
    ]);
    expect(await code(await svc.post(`/sessions/${sid}/resume`, { resume_cursor: "rc1.garbage!" }))).toEqual([
      400,
      "invalid_cursor",
    ]);
    expect(await written()).toBe(before);
  });
});
