// A session's line in the list (issue 41): a title a person recognises (first message or task) and, for a sub-agent
// session, the session whose `delegate` call started it, so a list can nest it under its parent.
import type { SessionEventData } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { SUBAGENT_PROFILE } from "../policy/policy.ts";

type State = SessionEventData<"session_state">;

const TITLE_CHARS = 200;
/** How far into a chat's log its first message is looked for: a branch's state and seed checkpoint come before it. */
export const TITLE_EVENTS = 8;

/** The session that delegated to this one; null for a session a person or a branch started. */
export const delegatedBy = (state: State): string | null =>
  state.agent_profile === SUBAGENT_PROFILE ? (state.parent_session_id ?? null) : null;

/** A background session's task, else the first message among the log's first events; null before a chat's first. */
export function titleOf(state: State, head: readonly StreamEvent[]): string | null {
  const task = (state.resume_context as { task?: unknown } | null | undefined)?.task;
  const opening = head.find((e) => e.type === "turn_start")?.data as SessionEventData<"turn_start"> | undefined;
  const first = typeof task === "string" ? task : opening?.message;
  if (first === undefined) return null;
  const line = first.replace(/\s+/g, " ").trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
