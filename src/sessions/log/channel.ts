// The channel projection (SPEC "Channel projection rules"): who took part in a session and what each said to whom.
import type { Channel } from "../../contract/sessions.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { eventId } from "../ids.ts";
import { clip } from "./projection.ts";

/** Envelopes kept: the most recent events (the raw log stays authoritative and complete). */
export const CHANNEL_ENVELOPES = 200;

const RUNTIME = "runtime";
const AGENT = "agent";
/** In a chat the person writing the messages is the local operator who also decides approvals. */
const OPERATOR = "operator:local";

type Data = Record<string, unknown>;

/** Sender and recipients of one event; approvals go through the local operator (rule 4); tools are participants as seen. */
function route(e: StreamEvent): { sender: string; recipients: string[] } {
  const d = e.data as Data;
  switch (e.type) {
    case "turn_start":
      return { sender: OPERATOR, recipients: [AGENT] };
    case "approval_required":
      return { sender: AGENT, recipients: [OPERATOR] };
    case "approval_applied":
      return { sender: OPERATOR, recipients: [AGENT] };
    case "tool_call":
      return { sender: AGENT, recipients: [`tool:${String(d.name)}`] };
    case "tool_result":
    case "tool_outcome":
      return { sender: `tool:${String(d.tool_name)}`, recipients: [AGENT] };
    case "token":
    case "response":
    case "thinking":
    case "reflection":
      return { sender: AGENT, recipients: [OPERATOR] };
    default:
      return { sender: RUNTIME, recipients: [AGENT, OPERATOR] };
  }
}

function summary(e: StreamEvent): string {
  const d = e.data as Data;
  switch (e.type) {
    case "turn_start":
      return clip(String(d.message), 120);
    case "response":
    case "thinking":
    case "token":
      return clip(String(d.text), 120);
    case "tool_call":
      return `${String(d.name)} started`;
    case "tool_outcome":
      return `${String(d.tool_name)} ${String(d.status)} in ${String(d.elapsed_ms)} ms`;
    case "approval_required":
      return `approve ${String(d.tool_name)}? ${String(d.reason)}`;
    case "approval_applied":
      return `${String(d.decision)} ${String(d.tool_name)}`;
    case "session_state":
      return `status ${String(d.status)}`;
    case "error":
      return `${String(d.code)}: ${clip(String(d.message), 100)}`;
    default:
      return e.type;
  }
}

export function channelOf(sessionId: string, events: readonly StreamEvent[]): Channel {
  const participants = new Map<string, Channel["participants"][number]>([
    [RUNTIME, { id: RUNTIME, kind: "runtime", label: "Smriti session runtime" }],
    [AGENT, { id: AGENT, kind: "agent", label: "session agent" }],
  ]);
  const envelopes = events.slice(-CHANNEL_ENVELOPES).map((e) => {
    const { sender, recipients } = route(e);
    for (const id of [sender, ...recipients]) {
      if (participants.has(id)) continue;
      if (id === OPERATOR) participants.set(id, { id, kind: "operator", label: "local operator" });
      else if (id.startsWith("tool:")) participants.set(id, { id, kind: "tool", label: id.slice(5) });
    }
    return {
      event_id: eventId(e.stream, e.seq),
      sender_id: sender,
      recipient_ids: recipients,
      event_type: e.type,
      summary: summary(e),
      payload: e.data,
    };
  });
  return { channel_id: `session:${sessionId}`, participants: [...participants.values()], envelopes };
}
