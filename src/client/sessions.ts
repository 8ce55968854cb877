// The session calls of the client (chat and background), and session streams that resume by themselves after a drop; no node: imports.
import { endsTurnSegment, type SessionEventData, type SessionEventType } from "../contract/events.ts";
import type { JsonRouteId, RouteInput, RouteOutput } from "../contract/routes.ts";
import { parseSse } from "./sse.ts";

type Call = <K extends JsonRouteId>(id: K, input: RouteInput<K>) => Promise<RouteOutput<K>>;
/** Opens a stream row by path; `lastEventId` set means resume (no body sent). */
type Open = (
  method: "GET" | "POST",
  path: string,
  body: unknown,
  lastEventId: string | null,
  signal?: AbortSignal,
) => Promise<Response>;

/** One session event as the stream sends it, typed by its name. */
export type SessionEvent = {
  [K in SessionEventType]: { id: string; event: K; data: SessionEventData<K> };
}[SessionEventType];

export interface ResumeOptions {
  /** Reconnect attempts after a drop before the error reaches the caller (default 5; each waits 2x longer, from 200 ms). */
  retries?: number;
  /** Start after this event id (a stream read earlier). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Told each time the stream (re)opens, before its first event. */
  onOpen?: () => void;
  /** Told before each reconnect after a drop (a console shows "reconnecting"). */
  onReconnect?: (attempt: number, error: unknown) => void;
}

const endsTurn = (e: SessionEvent) => endsTurnSegment(e.event, e.data);

/**
 * Yields a stream's events; when the connection drops before `isEnd`, reconnects with Last-Event-ID and goes on, so
 * the caller sees every event once. A 4xx is thrown at once (SmritiError, through `check`).
 */
async function* resuming(
  open: (lastEventId: string | null) => Promise<Response>,
  isEnd: (e: SessionEvent) => boolean,
  endsAtClose: boolean,
  opts: ResumeOptions,
  check: (res: Response) => Promise<unknown>,
): AsyncGenerator<SessionEvent> {
  let last = opts.lastEventId ?? null;
  let ended = false;
  for (let failures = 0; ;) {
    let received = 0;
    try {
      const res = await open(last);
      if (!res.ok || !res.body) {
        await check(res);
        return;
      }
      opts.onOpen?.();
      for await (const raw of parseSse(res.body)) {
        const e = raw as SessionEvent;
        [failures, last, received] = [0, e.id, received + 1];
        yield e;
        if ((ended = isEnd(e))) return;
      }
      // A resumed stream that closes with nothing new: the server had nothing after `last` (its segment was over).
      if (endsAtClose || (received === 0 && last !== null)) return;
    } catch (err) {
      if (ended) return; // the end was seen; a broken connection while closing loses nothing
      if (opts.signal?.aborted || (err as { status?: number }).status !== undefined || ++failures > (opts.retries ?? 5))
        throw err;
      if (last !== null) opts.onReconnect?.(failures, err);
    }
    if (last === null) throw new Error("the stream dropped before its first event; nothing to resume from");
    // Doubling from 200 ms, at most 5 s apart: a long outage is retried steadily, not at ever longer gaps.
    await new Promise((r) => setTimeout(r, Math.min(5_000, 200 * 2 ** Math.max(0, failures - 1))));
  }
}

export function sessionCalls(call: Call, open: Open, check: (res: Response) => Promise<unknown>) {
  const path = (sessionId: string, rest = "") => `/chat/sessions/${encodeURIComponent(sessionId)}${rest}`;
  return {
    /** POST /chat/sessions: a new chat session (provider, modes, policy); returns its session_state. */
    createChatSession: (input: RouteInput<"chat_session_create"> = {}) => call("chat_session_create", input),
    /** GET /chat/sessions/{id}: state, pending approval, resume points, sub-agents, artifacts, channel. */
    getChatSession: (sessionId: string) => call("chat_session_get", { session_id: sessionId }),
    /** POST /chat/sessions/{id}/branch: a new session from an event id or a resume cursor. */
    branchChatSession: (sessionId: string, from: { from_event_id: string } | { resume_cursor: string }) =>
      call("chat_session_branch", { session_id: sessionId, ...from }),
    /** Posts a message and yields the turn's events (first `session`) until it completes, fails or waits for approval. */
    sendMessage: (sessionId: string, message: string, opts: ResumeOptions = {}) =>
      resuming(
        (last) => open("POST", path(sessionId, "/messages"), last ? null : { message }, last, opts.signal),
        endsTurn,
        false,
        opts,
        check,
      ),
    /** Approves or denies a pending tool call and yields the rest of the paused turn. */
    decideApproval: (
      sessionId: string,
      requestId: string,
      decision: "approve" | "deny",
      opts: ResumeOptions & { note?: string } = {},
    ) =>
      resuming(
        (last) =>
          open(
            "POST",
            path(sessionId, `/approvals/${encodeURIComponent(requestId)}`),
            last ? null : { decision, ...(opts.note ? { note: opts.note } : {}) },
            last,
            opts.signal,
          ),
        endsTurn,
        false,
        opts,
        check,
      ),
    /** POST /sessions: a background session for `task` (engine, modes, max_retries, expires_at, metadata.policy); returns its detail. */
    startSession: (input: RouteInput<"session_start">) => call("session_start", input),
    /** GET /sessions: chat and background sessions, newest first (status, kind, cursor, limit). */
    listSessions: (input: RouteInput<"session_list"> = {}) => call("session_list", input),
    /** GET /sessions/{id}: a background session's row, checkpoints, artifacts, health and channel. */
    getSession: (sessionId: string) => call("session_get", { session_id: sessionId }),
    pauseSession: (sessionId: string) => call("session_pause", { session_id: sessionId }),
    /** Requeues a paused session; with a point (from_event_id or resume_cursor), branches a new one from it. */
    resumeSession: (sessionId: string, from: { from_event_id?: string; resume_cursor?: string } = {}) =>
      call("session_resume", { session_id: sessionId, ...from }),
    cancelSession: (sessionId: string) => call("session_cancel", { session_id: sessionId }),
    /** Approves or denies what a background session waits on (a tool call, a bridged command, a health budget). */
    decideSessionApproval: (sessionId: string, requestId: string, decision: "approve" | "deny") =>
      call("session_approval", { session_id: sessionId, request_id: requestId, decision }),
    /** The session's health snapshot, then again each time it changes, until the session ends. */
    sessionHealth: (sessionId: string, opts: ResumeOptions = {}) =>
      resuming(
        (last) => open("GET", `/sessions/${encodeURIComponent(sessionId)}/health/stream`, null, last, opts.signal),
        () => false,
        true,
        opts,
        check,
      ),
    /** Every event of a session from the start (or after lastEventId); with follow, stays open for new ones. */
    sessionEvents: (sessionId: string, opts: ResumeOptions & { follow?: boolean } = {}) =>
      resuming(
        (last) =>
          open(
            "GET",
            `/sessions/${encodeURIComponent(sessionId)}/events/stream?follow=${opts.follow === false ? "false" : "true"}`,
            null,
            last,
            opts.signal,
          ),
        () => false,
        opts.follow === false,
        opts,
        check,
      ),
  };
}
