// The AG-UI projection of a session's native events (issue 46): one mapping table, native type -> AG-UI events, which
// also writes the README's table. A run's projection keeps only what the mapping needs: the open text message, the
// calls announced, and what the client already holds (so a replayed run sends each piece once).
import { EventType, type AGUIEvent, type Interrupt } from "@ag-ui/core";
import type { SessionEventData, SessionEventType } from "../../contract/events.ts";
import type { StreamMessage } from "../../contract/route.ts";

/** One row: the AG-UI events a native event becomes (for the README) and how. */
interface Row<K extends SessionEventType> {
  agui: string;
  to(p: RunProjection, data: SessionEventData<K>, id: string): AGUIEvent[];
}
type Table = { [K in SessionEventType]: Row<K> };

const custom = (name: string, value: unknown): AGUIEvent => ({ type: EventType.CUSTOM, name, value });
const asCustom = <K extends SessionEventType>(type: K): Row<K> => ({
  agui: `CUSTOM \`${type}\``,
  to: (_p, data) => [custom(type, data)],
});
const replace = (path: string, value: unknown): AGUIEvent => ({
  type: EventType.STATE_DELTA,
  delta: [{ op: "replace", path, value }],
});

/** The answer to an approval interrupt: `approved` true runs the call, anything else denies it (README "AG-UI"). */
export const APPROVAL_RESPONSE_SCHEMA = {
  type: "object",
  properties: { approved: { type: "boolean" }, note: { type: "string" } },
  required: ["approved"],
};

export const mapping: Table = {
  session: { agui: "RUN_STARTED, STATE_SNAPSHOT (the run's opening)", to: () => [] },
  session_state: asCustom("session_state"),
  session_checkpoint: asCustom("session_checkpoint"),
  policy_decision: asCustom("policy_decision"),
  hook_event: asCustom("hook_event"),
  sandbox_notice: asCustom("sandbox_notice"),
  transport_diagnostic: asCustom("transport_diagnostic"),
  subagent_event: asCustom("subagent_event"),
  turn_start: { agui: "STATE_DELTA `/turn_id`", to: (_p, d) => [replace("/turn_id", d.turn_id)] },
  turn_start_tools: asCustom("turn_start_tools"),
  token: {
    agui: "TEXT_MESSAGE_START (a text run's first delta), TEXT_MESSAGE_CONTENT",
    to: (p, d, id) => p.text(d.text, id),
  },
  response: {
    agui: "TEXT_MESSAGE_END (START and CONTENT first when nothing streamed), STATE_DELTA `/citations`",
    to: (p, d, id) => [...(p.streamed() ? [] : p.text(d.text, id)), ...p.endText(), replace("/citations", d.citations)],
  },
  thinking: asCustom("thinking"),
  reflection: asCustom("reflection"),
  tool_call: {
    agui: "TOOL_CALL_START, TOOL_CALL_ARGS, TOOL_CALL_END (same tool_call_id; once, also across runs)",
    to: (p, d) => p.toolCall(d.tool_call_id, d.name, d.arguments),
  },
  tool_result: {
    agui: "TOOL_CALL_RESULT",
    to: (p, d) => p.toolResult(d.tool_call_id, { status: "ok", ...d.result }),
  },
  tool_outcome: {
    agui: "TOOL_CALL_RESULT when the call logged no tool_result (denied, timeout, error), else CUSTOM `tool_outcome`",
    to: (p, d) =>
      p.hasResult(d.tool_call_id)
        ? [custom("tool_outcome", d)]
        : p.toolResult(d.tool_call_id, { status: d.status, ...d.result }),
  },
  tool_batch: asCustom("tool_batch"),
  tool_selected: asCustom("tool_selected"),
  tool_validation_error: asCustom("tool_validation_error"),
  context_warning: asCustom("context_warning"),
  context_compacted: asCustom("context_compacted"),
  step_progress: asCustom("step_progress"),
  usage: asCustom("usage"),
  retrieval: { agui: "STATE_DELTA `/pack`", to: (_p, d) => [replace("/pack", d.pack)] },
  cognition: {
    agui: "STATE_DELTA `/cognition`",
    to: (_p, d) => [replace("/cognition", { layers: d.layers, guardrails: d.guardrails })],
  },
  approval_required: {
    agui: "TOOL_CALL_START, TOOL_CALL_ARGS, TOOL_CALL_END of the waiting call; the run's RUN_FINISHED outcome `interrupt`",
    to: (p, d) => p.interrupt(d),
  },
  approval_applied: asCustom("approval_applied"),
  turn_end: asCustom("turn_end"),
  completed: { agui: "RUN_FINISHED outcome `success`", to: () => [] },
  error: {
    agui: "RUN_ERROR (code, message)",
    to: (p, d) => [...p.endText(), { type: EventType.RUN_ERROR, message: d.message, code: d.code }],
  },
  health_snapshot: asCustom("health_snapshot"),
};

/** What the client's messages already hold: text by message id, the calls it saw, the results it has. */
interface Held {
  text: Map<string, number>;
  calls: Set<string>;
  results: Set<string>;
}

type HeldMessage =
  | { role: "assistant"; id: string; content?: unknown; toolCalls?: { id: string }[] | undefined }
  | { role: "tool"; toolCallId: string }
  | { role: string };

export function heldBy(messages: readonly HeldMessage[]): Held {
  const held: Held = { text: new Map(), calls: new Set(), results: new Set() };
  for (const m of messages) {
    if (m.role === "assistant" && "id" in m) {
      if (typeof m.content === "string") held.text.set(m.id, m.content.length);
      for (const c of m.toolCalls ?? []) held.calls.add(c.id);
    }
    if (m.role === "tool" && "toolCallId" in m) held.results.add(m.toolCallId);
  }
  return held;
}

/** One run's projection: feed it the native messages in order, then ask how the run ends. */
export class RunProjection {
  private open: { id: string; skip: number; started: boolean } | null = null;
  private readonly results = new Set<string>();
  private readonly interrupts: Interrupt[] = [];
  failed = false;

  constructor(private readonly held: Held) {}

  /** The AG-UI events of one native message (`session` and `completed` have none of their own). */
  project(m: StreamMessage): AGUIEvent[] {
    const row = mapping[m.event as SessionEventType] as Row<SessionEventType> | undefined;
    if (!row) return [custom(m.event, m.data)];
    const events = row.to(this, m.data as never, m.id);
    if (m.event === "error") this.failed = true;
    return events;
  }

  /** How the run ends: nothing after RUN_ERROR, else RUN_FINISHED (an interrupt while an approval waits). */
  finish(threadId: string, runId: string): AGUIEvent[] {
    if (this.failed) return [];
    const outcome = this.interrupts.length
      ? { type: "interrupt" as const, interrupts: this.interrupts }
      : { type: "success" as const };
    return [...this.endText(), { type: EventType.RUN_FINISHED, threadId, runId, outcome }];
  }

  /** A text delta: the message is the native id of its first token; the part the client holds is not sent again. */
  text(delta: string, id: string): AGUIEvent[] {
    this.open ??= { id, skip: this.held.text.get(id) ?? 0, started: false };
    const o = this.open;
    const fresh = o.skip >= delta.length ? "" : delta.slice(o.skip);
    o.skip = Math.max(0, o.skip - delta.length);
    if (!fresh) return [];
    const start: AGUIEvent[] = o.started
      ? []
      : [{ type: EventType.TEXT_MESSAGE_START, messageId: o.id, role: "assistant" }];
    o.started = true;
    return [...start, { type: EventType.TEXT_MESSAGE_CONTENT, messageId: o.id, delta: fresh }];
  }

  streamed = () => this.open !== null;

  endText(): AGUIEvent[] {
    const o = this.open;
    this.open = null;
    return o?.started ? [{ type: EventType.TEXT_MESSAGE_END, messageId: o.id }] : [];
  }

  toolCall(id: string, name: string, args: Record<string, unknown>): AGUIEvent[] {
    const text = this.endText();
    if (this.held.calls.has(id)) return text;
    this.held.calls.add(id);
    const { _tool_call_id: _, ...shown } = args;
    return [
      ...text,
      { type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: name },
      { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: JSON.stringify(shown) },
      { type: EventType.TOOL_CALL_END, toolCallId: id },
    ];
  }

  hasResult = (id: string) => this.results.has(id) || this.held.results.has(id);

  toolResult(id: string, content: Record<string, unknown>): AGUIEvent[] {
    if (this.hasResult(id)) return [];
    this.results.add(id);
    return [
      {
        type: EventType.TOOL_CALL_RESULT,
        messageId: `result_${id}`,
        toolCallId: id,
        content: JSON.stringify(content),
        role: "tool",
      },
    ];
  }

  interrupt(d: SessionEventData<"approval_required">): AGUIEvent[] {
    this.interrupts.push({
      id: d.request_id,
      reason: d.tool_call_id ? "tool_call" : "confirmation",
      message: d.reason,
      ...(d.tool_call_id ? { toolCallId: d.tool_call_id } : {}),
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
      metadata: { tool_name: d.tool_name },
    });
    return d.tool_call_id ? this.toolCall(d.tool_call_id, d.tool_name, d.arguments ?? {}) : this.endText();
  }
}

/** The README's table of every native event type and its AG-UI events, generated from the mapping. */
export const mappingTable = () =>
  [
    "| Native event | AG-UI |",
    "|---|---|",
    ...Object.entries(mapping).map(([type, row]) => `| \`${type}\` | ${row.agui} |`),
  ].join("\n");
