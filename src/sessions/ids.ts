// Session ids, event ids (`<session_id>/<seq>`, what SSE sends) and resume cursors (an opaque handle on one point of a session).
import { createHash, randomUUID } from "node:crypto";
import { AppError } from "../contract/errors.ts";

export const newSessionId = () => `ses_${randomUUID()}`;
/** The session of an AG-UI thread whose id is not a session id: the same thread in the same workspace is the same session. */
export function threadSessionId(workspaceId: string, threadId: string): string {
  const h = createHash("sha256").update(`${workspaceId}\u0000${threadId}`).digest("hex");
  return `ses_${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
export const isSessionId = (id: string) => /^ses_[0-9a-f-]{36}$/.test(id);
export const newRequestId = () => `apr_${randomUUID()}`;
export const newTurnId = () => `trn_${randomUUID()}`;
export const newAgentId = () => `agt_${randomUUID()}`;

export const eventId = (sessionId: string, seq: number) => `${sessionId}/${seq}`;

/** A session's key among others in one process (ids are unique, the workspace keeps tenants apart anyway). */
export const sessionKey = (workspaceId: string, sessionId: string) => `${workspaceId}\u0000${sessionId}`;

/** A point of a session's log: everything up to and including `seq`. */
export interface SessionPoint {
  sessionId: string;
  seq: number;
}

/** The session and seq of an event id this service sent; malformed ids are a 400. */
export function parseEventId(id: string): SessionPoint {
  const m = /^(ses_[0-9a-f-]{36})\/(\d+)$/.exec(id.trim());
  if (!m) throw new AppError("invalid_request", "an event id is '<session_id>/<seq>' as sent by the session stream");
  return { sessionId: m[1]!, seq: Number(m[2]) };
}

/** Opaque to clients (they pass it back); versioned so its form can change. */
export const resumeCursor = (p: SessionPoint) => `rc1.${Buffer.from(`${p.sessionId}/${p.seq}`).toString("base64url")}`;

export function parseResumeCursor(cursor: string): SessionPoint {
  const m = /^rc1\.([A-Za-z0-9_-]+)$/.exec(cursor);
  try {
    if (m) return parseEventId(Buffer.from(m[1]!, "base64url").toString("utf8"));
  } catch {
    // falls through to the cursor error
  }
  throw new AppError(
    "invalid_cursor",
    "resume_cursor is not one this service handed out (take one from resume_points)",
  );
}

/** A branch's point in its source: from an event id or a resume cursor, of this session, at an event it has (seqs 1..last). */
export function branchPoint(
  sessionId: string,
  lastSeq: number,
  from: { from_event_id?: string | undefined; resume_cursor?: string | undefined },
): SessionPoint {
  const point =
    from.from_event_id !== undefined ? parseEventId(from.from_event_id) : parseResumeCursor(from.resume_cursor!);
  if (point.sessionId !== sessionId)
    throw new AppError(
      "event_not_in_session",
      `that ${from.from_event_id ? "event" : "cursor"} belongs to another session, not ${sessionId}`,
    );
  if (point.seq < 1 || point.seq > lastSeq)
    throw new AppError("not_found", `session ${sessionId} has no event ${point.seq}`);
  return point;
}
