// The session timeline as rows, folded from the event log one event at a time. `folds` has one entry per event type the
// console handles: its keys are the set a test compares with GET /stream-events (SPEC rule 7), and TypeScript makes it total.
// A chat reads like a chat (issue 41): a turn's retrieval and cognition summaries fold into its answer, and the rows
// that only restate what another row shows (idle/running, a completed turn's end, a passing check) are quiet: kept for
// the debug view, hidden from the default one.
import type {
  Citation,
  HealthSnapshot,
  SessionEvent,
  SessionEventData,
  SessionEventType,
} from "../../../src/client/index.ts";

export type Envelope = SessionEvent;
type Data<K extends SessionEventType> = SessionEventData<K>;
type State = Data<"session_state">;

interface RowBase {
  key: string;
  /** Every event folded into the row, oldest first (the debug view shows their payloads; branching starts after the last). */
  events: Envelope[];
  /** Shown in the debug view only: the row restates what another row or the header already says. */
  quiet?: boolean;
}

/** An answer's sources: the citations it gives, the context pack it read, the layers that shaped its look-ups. */
export interface AnswerMemory {
  pack: Data<"retrieval">["pack"];
  layers: string[] | null;
  guardrails: string[];
}

export type Row = RowBase &
  (
    | { kind: "message"; text: string }
    | ({ kind: "text"; text: string; citations: Citation[]; final: boolean } & AnswerMemory)
    | { kind: "thinking"; text: string }
    | { kind: "reflection"; check: string; passed: boolean; detail: string }
    | {
        kind: "tool";
        id: string;
        name: string;
        args: unknown;
        result: unknown;
        status: string | null;
        elapsedMs: number | null;
        hooks: string[];
        invalid: number;
      }
    | {
        kind: "approval";
        requestId: string;
        tool: string;
        reason: string;
        budgets: string[];
        decision: "approve" | "deny" | null;
      }
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
const DEBUG_ROWS = new Set<Row["kind"]>(["diagnostic"]);

/** The rows a view shows: the debug view every one, the default view neither debug-tier nor quiet ones. */
export const shownRows = (rows: readonly Row[], debug: boolean): Row[] =>
  debug ? [...rows] : rows.filter((r) => !DEBUG_ROWS.has(r.kind) && !r.quiet);

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
const noMemory: AnswerMemory = { pack: null, layers: null, guardrails: [] };
type TextRow = Extract<Row, { kind: "text" }>;
/** Folds into the turn's answer row (made empty if the answer has not come yet, as when a turn fails before it). */
function answer(t: Timeline, turnId: string, e: Envelope, change: (row: TextRow) => Partial<TextRow>): void {
  const fresh = (): TextRow => ({
    kind: "text",
    text: "",
    citations: [],
    final: false,
    ...noMemory,
    guardrails: [],
    key: "",
    events: [],
  });
  t.upsert(
    `text:${turnId}`,
    e,
    () => {
      const { key: _key, events: _events, ...body } = fresh();
      return { ...body, ...change(fresh()) } as RowBody;
    },
    (row) => change(row as TextRow) as Partial<RowBody>,
  );
}

/** Chat statuses the turn's own rows already show (its message, its answer, its approval row). */
const QUIET_CHAT = new Set(["idle", "running", "awaiting_approval"]);
/** Whether a status change restates another row: a chat's turn rhythm, a wait the approval row shows, a run going on after one. */
function quietStatus(next: State, previous: string | undefined): boolean {
  if (next.engine === undefined) return QUIET_CHAT.has(next.status);
  return next.status === "awaiting_approval" || (next.status === "running" && previous === "awaiting_approval");
}
/** Every event of one tool call folds into one row, found by tool_call_id (two calls of one tool stay two rows). */
function toolRow(t: Timeline, id: string, name: string, e: Envelope, change: (row: ToolRow) => Partial<ToolRow>): void {
  const fresh = {
    kind: "tool",
    id,
    name,
    args: null,
    result: null,
    status: null,
    elapsedMs: null,
    hooks: [],
    invalid: 0,
  } as const;
  t.upsert(
    `tool:${id}`,
    e,
    () => ({ ...fresh, hooks: [], ...change({ ...fresh, hooks: [], key: "", events: [] }) }) as RowBody,
    (row) => change(row as ToolRow) as Partial<RowBody>,
  );
}

/** How each event type shows: the console handles exactly these (compared with GET /stream-events in the tests). */
export const folds: { [K in SessionEventType]: Fold<K> } = {
  session: (t, d, e) => t.push(e, diagnostic(`stream opened for ${d.session_id}`)),
  session_state: (t, d, e) => {
    const previous = t.state?.status;
    t.state = d;
    if (previous !== d.status) t.push(e, { kind: "status", status: d.status, quiet: quietStatus(d, previous) });
  },
  session_checkpoint: (t, d, e) => t.push(e, { kind: "checkpoint", data: d }),
  policy_decision: (t, d, e) => t.push(e, diagnostic(`policy ${d.outcome} ${d.subject}: ${d.reason}`)),
  hook_event: (t, d, e) =>
    toolRow(t, d.tool_call_id, d.tool_name, e, (row) => ({
      hooks: [...row.hooks, `${d.hook} ${d.phase} ${d.status}`],
    })),
  sandbox_notice: (t, d, e) =>
    t.push(e, diagnostic(`sandbox ${d.resolved_backend} (asked ${d.requested_backend}, ${d.isolation}): ${d.reason}`)),
  transport_diagnostic: (t, d, e) =>
    t.push(
      e,
      diagnostic(`provider ${d.provider_requested} -> ${d.provider_actual}: ${d.kind} ${d.status} (${d.reason})`),
    ),
  subagent_event: (t, d, e) =>
    t.push(e, diagnostic(`sub-agent ${d.agent_id} ${d.status}${d.question ? `: ${d.question}` : ""}`)),
  turn_start: (t, d, e) => t.upsert(`message:${d.turn_id}`, e, () => ({ kind: "message", text: d.message })),
  turn_start_tools: (t, d, e) => t.push(e, diagnostic(`tools offered: ${d.tools.join(", ")}`)),
  token: (t, d, e) => answer(t, d.turn_id, e, (row) => ({ text: row.text + d.text })),
  response: (t, d, e) => answer(t, d.turn_id, e, () => ({ text: d.text, citations: d.citations, final: true })),
  thinking: (t, d, e) =>
    t.upsert(
      `thinking:${d.turn_id}`,
      e,
      () => ({ kind: "thinking", text: d.text }),
      (row) => ({ text: `${(row as { text: string }).text}\n${d.text}` }),
    ),
  // The claims check: a row when it fails; a pass is quiet (the answer's citations are its evidence).
  reflection: (t, d, e) =>
    t.push(e, { kind: "reflection", check: d.check, passed: d.passed, detail: d.detail, quiet: d.passed }),
  tool_call: (t, d, e) => toolRow(t, d.tool_call_id, d.name, e, () => ({ name: d.name, args: d.arguments })),
  tool_result: (t, d, e) => toolRow(t, d.tool_call_id, d.tool_name, e, () => ({ result: d.result })),
  tool_outcome: (t, d, e) =>
    toolRow(t, d.tool_call_id, d.tool_name, e, () => ({ status: d.status, elapsedMs: d.elapsed_ms, result: d.result })),
  tool_batch: (t, d, e) => t.push(e, diagnostic(`wave of ${d.tool_call_ids.length} tool calls run together`)),
  tool_selected: (t, d, e) =>
    t.push(e, diagnostic(`tool selection: ${d.offered.map((o) => `${o.name} ${o.score.toFixed(2)}`).join(", ")}`)),
  tool_validation_error: (t, d, e) =>
    toolRow(t, d.tool_call_id, d.tool_name, e, (row) => ({ invalid: row.invalid + 1 })),
  context_warning: (t, d, e) =>
    t.push(e, {
      kind: "context",
      note: `Context at ${Math.round((100 * d.used_tokens) / Math.max(1, d.budget_tokens))}% of its ${d.budget_tokens}-token budget`,
    }),
  context_compacted: (t, d, e) =>
    t.push(e, {
      kind: "context",
      note: `Context compacted: ${d.original_count} messages to ${d.compacted_count}, ${d.tokens_saved} tokens saved`,
    }),
  step_progress: (t, d, e) =>
    t.upsert(
      `step:${d.turn_id ?? ""}:${d.step}`,
      e,
      () => ({ kind: "step", data: d }),
      () => ({ data: d }),
    ),
  usage: (t, d, e) => {
    t.usage = { input: t.usage.input + d.input_tokens, output: t.usage.output + d.output_tokens };
    t.push(
      e,
      diagnostic(
        `usage: ${d.input_tokens} in, ${d.output_tokens} out${d.cost_usd === null ? "" : `, $${d.cost_usd.toFixed(4)}`}`,
      ),
    );
  },
  // Folded into the answer: its citations are listed once, there, with the pack and the layers beside them.
  retrieval: (t, d, e) =>
    answer(t, d.turn_id, e, (row) => ({ pack: d.pack, citations: row.final ? row.citations : d.citations })),
  cognition: (t, d, e) => answer(t, d.turn_id, e, () => ({ layers: d.layers, guardrails: d.guardrails })),
  approval_required: (t, d, e) =>
    t.upsert(`approval:${d.request_id}`, e, () => ({
      kind: "approval",
      requestId: d.request_id,
      tool: d.tool_name,
      reason: d.reason,
      budgets: d.budgets ?? [],
      decision: null,
    })),
  approval_applied: (t, d, e) =>
    t.upsert(
      `approval:${d.request_id}`,
      e,
      () => ({
        kind: "approval",
        requestId: d.request_id,
        tool: d.tool_name,
        reason: "",
        budgets: [],
        decision: d.decision,
      }),
      () => ({ decision: d.decision }),
    ),
  // A turn's end is news only when it was cancelled: the answer, the approval row or the error row says the rest.
  turn_end: (t, d, e) => t.push(e, { kind: "turn_end", status: d.status, quiet: d.status !== "cancelled" }),
  completed: (t, _d, e) => t.push(e, { kind: "completed", quiet: true }),
  error: (t, d, e) => t.push(e, { kind: "error", code: d.code, message: d.message }),
  health_snapshot: (t, d) => void (t.health = d),
};
