// Session test helpers: create a session, post a message and read its stream, read a session's whole log.
import { expect } from "vitest";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import type { TestService } from "../helpers/runtime.ts";

/** GET (no body) or POST (a JSON body) with the token, to one of the `smriti serve` processes a test runs. */
export const caller = (token: string) => (url: string, path: string, body?: object) =>
  fetch(`${url}${path}`, {
    method: body ? "POST" : "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

export async function readSse(res: Response): Promise<SseEvent[]> {
  if (!res.ok || !res.body) throw new Error(`stream failed: ${res.status} ${await res.text()}`);
  const out: SseEvent[] = [];
  for await (const e of parseSse(res.body)) out.push(e);
  return out;
}

export async function createSession(svc: TestService, body: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.post("/chat/sessions", body);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session_id: string }).session_id;
}

export const send = async (svc: TestService, sessionId: string, message: string) =>
  readSse(await svc.post(`/chat/sessions/${sessionId}/messages`, { message }));

export const decide = async (svc: TestService, sessionId: string, requestId: string, decision: "approve" | "deny") =>
  readSse(await svc.post(`/chat/sessions/${sessionId}/approvals/${requestId}`, { decision }));

/** Every logged event of the session, as GET /sessions/{id}/events/stream?follow=false sends them. */
export const logOf = async (svc: TestService, sessionId: string) =>
  readSse(await svc.get(`/sessions/${sessionId}/events/stream`, { follow: "false" }));

export const types = (events: readonly SseEvent[]) => events.map((e) => e.event);
export const dataOf = <T = Record<string, unknown>>(events: readonly SseEvent[], type: string) =>
  events.filter((e) => e.event === type).map((e) => e.data as T);

/** Runs of token events collapse to one, so a sequence does not depend on how many pieces the answer came in. */
export const collapseTokens = (list: readonly (string | undefined)[]) =>
  list.filter((t, i) => t !== "token" || list[i - 1] !== "token");

/** A turn's opening after `session`, one allowed tool call, and a successful turn's closing, as the harness emits them. */
export const OPENING = ["turn_start", "session_state", "tool_selected", "turn_start_tools"];
export const TOOL_RUN = ["policy_decision", "tool_call", "tool_result", "tool_outcome"];
export const CLOSING = [
  "response",
  "reflection",
  "retrieval",
  "cognition",
  "usage",
  "turn_end",
  "session_state",
  "completed",
];

/** A route with a request it would accept: method, path, JSON body (null for a GET). */
export type RouteCase = readonly [method: string, path: string, body: object | null];

export const errorCode = async (res: Response) => [
  res.status,
  ((await res.json()) as { error: { code: string } }).error.code,
];

/** Each route answers 401 unauthorized without a token and with a bad one. */
export async function expectUnauthorized(svc: TestService, routes: readonly RouteCase[]): Promise<void> {
  for (const [method, path, body] of routes)
    for (const authorization of [null, "Bearer smr_not-a-token"]) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(authorization ? { authorization } : {}),
      };
      const res = await svc.app.request(path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(await errorCode(res), `${method} ${path}`).toEqual([401, "unauthorized"]);
    }
}

/** Each route about session `sid` answers 404 to another workspace's token, and for an unknown session id. */
export async function expectNotFound(
  svc: TestService,
  routes: readonly RouteCase[],
  sid: string,
  foreignToken: string,
): Promise<void> {
  const unknown = "ses_00000000-0000-0000-0000-000000000000";
  for (const [method, path, body] of routes)
    for (const [p, token] of [
      [path, foreignToken],
      [path.replace(sid, unknown), svc.token],
    ] as const) {
      const res = await svc.app.request(p, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(await errorCode(res), `${method} ${p}`).toEqual([404, "not_found"]);
    }
}
