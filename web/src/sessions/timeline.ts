// The session timeline as rows, folded from the event log one event at a time. `folds` has one entry per event type the
// console handles: its keys are the set a test compares with GET /stream-events (SPEC rule 7), and TypeScript makes it total.
import type { Citation, HealthSnapshot, SessionEvent, SessionEventData, SessionEventType } from "../../../src/client/index.ts";

export type Envelope = SessionEvent;
type Data<K extends SessionEventType> = SessionEventData<K>;
type State = Data<"session_state">;

interface RowBase {
  key: string;
  /** Every event folded into the row, oldest first (the debug view shows their payloads; branching starts after the last). */
  events: Envelope[];
}

export type Row = RowBase &
  (
    | { kind: "message"; text: string }
    | { kind: "text"; text: string; citations: Citation[]; final: boolean }
    | { kind: "thinking"; text: string }
    | { kind: "reflection"; check: string; passed: boolean; detail: string }
    | { kind: "tool"; id: string; name: string; args: unknown; result: unknown; status: string | null; elapsedMs: number | null; hooks: string[]; invalid: number }
    | { kind: "approval"; requestId: string; tool: string; reason: string; budgets: string[]; decision: "approve" | "deny" | null }
    | { kind: "retrieval"; citations: Citation[]; pack: Data<"retrieval">["pack"] }
    | { kind: "cognition"; layers: string[]; guardrails: string[] }
    | { kind: "checkpoint"; data: Data<"session_checkpoint"> }
    | { kind: "step"; data: Data<"step_progress"> }
    | { kind: "context"; note: string }
    | { kind: "status"; status: string }
    | { kind: "turn_end"; status: string }
    | { kind: "completed" }
    | { kind: "error"; code: string; message: string }
    | { kind: "diagnostic"; summary: string }
  );

/** Rows that only the debug view shows: the spec's debug-tier events. */
export const DEBUG_ROWS = new Set<Row["kind"]>(["diagnostic"]);

export class Timeline {
  rows: Row[] = [];
  state: State | null = null;
  health: HealthSnapshot | null = null;
  lastEventId: string | null = null;
  usage = { input: 0, output: 0 };
  private readonly index = new Map<string, number>();
  private readonly seen = new Set<string>();

  /** Folds one event in; an event seen before (a resumed or second stream) changes nothing. */
  add(e: Envelope): boolean {
    if (e.id && this.seen.has(e.id)) return false;
    if (e.id) this.seen.add(e.id);
    if (e.id && e.event !== "health_snapshot") this.lastEventId = e.id;
    (folds[e.event] as (t: Timeline, data: unknown, e: Envelope) => void)(this, e.data, e);
    return true;
  }

  /** Adds a row, or folds into the row with this key (a new object, so a memoized row re-renders). */
  upsert(key: string, e: Envelope, make: () => RowBody, change: (row: Row) => Partial<RowBody> = () => ({})): void {
    const at = this.index.get(key);
    if (at === undefined) {
      this.index.set(key, this.rows.length);
      this.rows.push({ ...make(), key, events: [e] } as Row);
      return;
    }
    const row = this.rows[at]!;
    this.rows[at] = { ...row, ...change(row), events: [...row.events, e] } as Row;
  }

  push(e: Envelope, row: RowBody): void {
    this.upsert(e.id || `local-${this.rows.length}`, e, () => row);
  }

  /** The pending approval, if the latest one is undecided. */
  pendingApproval(): Extract<Row, { kind: "approval" }> | null {
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const row = this.rows[i]!;
      if (row.kind === "approval") return row.decision === null ? row : null;
    }
    return null;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type RowBody = DistributiveOmit<Row, "key" | "events">;
type ToolRow = Extract<Row, { kind: "tool" }>;
type Fold<K extends SessionEventType> = (t: Timeline, data: Data<K>, e: Envelope) => void;

const diagnostic = (summary: string) => ({ kind: "diagnostic" as const, summary });
/** Every event of one tool call folds into one row, found by tool_call_id (two calls of one tool stay two rows). */
function toolRow(t: Timeline, id: string, name: string, e: Envelope, change: (row: ToolRow) => Partial<ToolRow>): void {
  const fresh = { kind: "tool", id, name, args: null, result: null, status: null, elapsedMs: null, hooks: [], invalid: 0 } as const;
  t.upsert(`tool:${id}`, e, () => ({ ...fresh, hooks: [], ...change({ ...fresh, hooks: [], key: "", events: [] }) }) as RowBody, (row) => change(row as ToolRow) as Partial<RowBody>);
}

/** How each event type shows: the console handles exactly these (compared with GET /stream-events in the tests). */
export const folds: { [K in SessionEventType]: Fold<K> } = {
  session: (t, d, e) => t.push(e, diagnostic(`stream opened for ${d.session_id}`)),
  session_state: (t, d, e) => {
    const changed = t.state?.status !== d.status;
    t.state = d;
    if (changed) t.push(e, { kind: "status", status: d.status });
  },
  session_checkpoint: (t, d, e) => t.push(e, { kind: "checkpoint", data: d }),
  policy_decision: (t, d, e) => t.push(e, diagnostic(`policy ${d.outcome} ${d.subject}: ${d.reason}`)),
  hook_event: (t, d, e) => toolRow(t, d.tool_call_id, d.tool_name, e, (row) => ({ hooks: [...row.hooks, `${d.hook} ${d.phase} ${d.status}`] })),
  sandbox_notice: (t, d, e) => t.push(e, diagnostic(`sandbox ${d.resolved_backend} (asked ${d.requested_backend}, ${d.isolation}): ${d.reason}`)),
  transport_diagnostic: (t, d, e) => t.push(e, diagnostic(`provider ${d.provider_requested} -> ${d.provider_actual}: ${d.kind} ${d.status} (${d.reason})`)),
  subagent_event: (t, d, e) => t.push(e, diagnostic(`sub-agent ${d.agent_id} ${d.status}${d.question ? `: ${d.question}` : ""}`)),
  turn_start: (t, d, e) => t.upsert(`message:${d.turn_id}`, e, () => ({ kind: "message", text: d.message })),
  turn_start_tools: (t, d, e) => t.push(e, diagnostic(`tools offered: ${d.tools.join(", ")}`)),
  token: (t, d, e) => t.upsert(`text:${d.turn_id}`, e, () => ({ kind: "text", text: d.text, citations: [], final: false }), (row) => ({ text: (row as { text: string }).text + d.text })),
  response: (t, d, e) => t.upsert(`text:${d.turn_id}`, e, () => ({ kind: "text", text: d.text, citations: d.citations, final: true }), () => ({ text: d.text, citations: d.citations, final: true })),
  thinking: (t, d, e) => t.upsert(`thinking:${d.turn_id}`, e, () => ({ kind: "thinking", text: d.text }), (row) => ({ text: `${(row as { text: string }).text}\n${d.text}` })),
  reflection: (t, d, e) => t.push(e, { kind: "reflection", check: d.check, passed: d.passed, detail: d.detail }),
  tool_call: (t, d, e) => toolRow(t, d.tool_call_id, d.name, e, () => ({ name: d.name, args: d.arguments })),
  tool_result: (t, d, e) => toolRow(t, d.tool_call_id, d.tool_name, e, () => ({ result: d.result })),
  tool_outcome: (t, d, e) => toolRow(t, d.tool_call_id, d.tool_name, e, () => ({ status: d.status, elapsedMs: d.elapsed_ms, result: d.result })),
  tool_batch: (t, d, e) => t.push(e, diagnostic(`wave of ${d.tool_call_ids.length} tool calls run together`)),
  tool_selected: (t, d, e) => t.push(e, diagnostic(`tool selection: ${d.offered.map((o) => `${o.name} ${o.score.toFixed(2)}`).join(", ")}`)),
  tool_validation_error: (t, d, e) => toolRow(t, d.tool_call_id, d.tool_name, e, (row) => ({ invalid: row.invalid + 1 })),
  context_warning: (t, d, e) => t.push(e, { kind: "context", note: `Context at ${Math.round((100 * d.used_tokens) / Math.max(1, d.budget_tokens))}% of its ${d.budget_tokens}-token budget` }),
  context_compacted: (t, d, e) => t.push(e, { kind: "context", note: `Context compacted: ${d.original_count} messages to ${d.compacted_count}, ${d.tokens_saved} tokens saved` }),
  step_progress: (t, d, e) => t.upsert(`step:${d.turn_id ?? ""}:${d.step}`, e, () => ({ kind: "step", data: d }), () => ({ data: d })),
  usage: (t, d, e) => {
    t.usage = { input: t.usage.input + d.input_tokens, output: t.usage.output + d.output_tokens };
    t.push(e, diagnostic(`usage: ${d.input_tokens} in, ${d.output_tokens} out${d.cost_usd === null ? "" : `, $${d.cost_usd.toFixed(4)}`}`));
  },
  retrieval: (t, d, e) => t.push(e, { kind: "retrieval", citations: d.citations, pack: d.pack }),
  cognition: (t, d, e) => t.push(e, { kind: "cognition", layers: d.layers, guardrails: d.guardrails }),
  approval_required: (t, d, e) =>
    t.upsert(`approval:${d.request_id}`, e, () => ({ kind: "approval", requestId: d.request_id, tool: d.tool_name, reason: d.reason, budgets: d.budgets ?? [], decision: null })),
  approval_applied: (t, d, e) =>
    t.upsert(`approval:${d.request_id}`, e, () => ({ kind: "approval", requestId: d.request_id, tool: d.tool_name, reason: "", budgets: [], decision: d.decision }), () => ({ decision: d.decision })),
  turn_end: (t, d, e) => t.push(e, { kind: "turn_end", status: d.status }),
  completed: (t, _d, e) => t.push(e, { kind: "completed" }),
  error: (t, d, e) => t.push(e, { kind: "error", code: d.code, message: d.message }),
  health_snapshot: (t, d) => void (t.health = d),
};
