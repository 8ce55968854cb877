// A session's health, derived from its log (and the run's heartbeat): the score, flags, budgets in force and what they
// measured, the evidence it relied on, an audit trail and what an operator can do. Pure: the same log gives the same snapshot.
import { DEFAULT_BUDGETS, type HealthBudgets, type HealthPolicy, type HealthSnapshot } from "../../contract/health.ts";
import type { SessionEventData } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { eventId } from "../ids.ts";
import { clip } from "../log/projection.ts";

type State = SessionEventData<"session_state">;
type Data = Record<string, unknown>;
export type BudgetName = keyof HealthBudgets;

export interface HealthInput {
  events: readonly StreamEvent[];
  state: State;
  policy: HealthPolicy;
  heartbeatAt: number | null;
  now: number;
  /** A running session whose heartbeat is older than this is stuck. */
  staleMs: number;
}

const AUDIT_ROWS = 20;
const PROVENANCE = 20;
/** Statuses a budget acts in (SPEC: "a running or recovering session"). */
export const ENFORCED_IN = new Set(["running", "recovering"]);

/** The budgets in force: the policy's, over the defaults (docs/sessions.md "Health policy"). */
export function budgetsOf(policy: HealthPolicy): Partial<Record<BudgetName, number>> {
  const { action: _action, ...set } = policy.health;
  return { ...DEFAULT_BUDGETS, ...Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined)) };
}

/** What each budget measures, read from the log. */
export function measure(events: readonly StreamEvent[], now: number): Record<Exclude<BudgetName, "min_score">, number> {
  let runningSince: number | null = null;
  let runtimeMs = 0;
  const usageByTurn = new Map<string, { tokens: number; cost: number }>();
  const steps = new Map<string, { tokens: number; cost: number }>();
  let context = 0;
  let failed = 0;
  let latency = 0;
  let noEvidence = 0;
  const calls = new Set<string>();
  let loops = 0;
  const plans = new Set<string>();
  let repeats = 0;
  for (const e of events) {
    const d = e.data as Data;
    if (e.type === "session_state") {
      if (runningSince !== null) runtimeMs += e.at - runningSince;
      runningSince = d.status === "running" ? e.at : null;
    } else if (e.type === "usage") {
      usageByTurn.set(String(d.turn_id), {
        tokens: Number(d.input_tokens) + Number(d.output_tokens),
        cost: Number(d.cost_usd ?? 0),
      });
    } else if (e.type === "step_progress") {
      const turn = String(d.turn_id ?? "");
      const sum = steps.get(turn) ?? { tokens: 0, cost: 0 };
      steps.set(turn, {
        tokens: sum.tokens + Number(d.input_tokens ?? 0) + Number(d.output_tokens ?? 0),
        cost: sum.cost + Number(d.cost_usd ?? 0),
      });
      if (d.budget_tokens) context = (100 * Number(d.context_tokens ?? 0)) / Number(d.budget_tokens);
    } else if (e.type === "context_warning") context = (100 * Number(d.used_tokens)) / Number(d.budget_tokens);
    else if (e.type === "tool_outcome") {
      if (d.status === "error" || d.status === "timeout") failed++;
      latency = Math.max(latency, Number(d.elapsed_ms));
    } else if (e.type === "tool_call") {
      const { _tool_call_id: _, ...args } = d.arguments as Data;
      const key = `${String(d.name)} ${JSON.stringify(args)}`;
      if (calls.has(key)) loops++;
      calls.add(key);
    } else if (e.type === "thinking") {
      if (plans.has(String(d.text))) repeats++;
      plans.add(String(d.text));
    } else if (e.type === "response" && (d.citations as unknown[]).length === 0) noEvidence++;
  }
  if (runningSince !== null) runtimeMs += Math.max(0, now - runningSince);
  // A finished turn's usage event has its totals; an unfinished one counts its steps so far.
  let [tokens, cost] = [0, 0];
  for (const [turn, sum] of [...steps, ...[...usageByTurn].filter(([turn]) => !steps.has(turn))]) {
    const total = usageByTurn.get(turn) ?? sum;
    [tokens, cost] = [tokens + total.tokens, cost + total.cost];
  }
  return {
    max_runtime_minutes: Math.round(runtimeMs / 60) / 1_000,
    max_total_tokens: tokens,
    max_cost_usd: Math.round(cost * 1e6) / 1e6,
    max_context_usage_pct: Math.round(context * 10) / 10,
    max_failed_tool_calls: failed,
    max_loop_warnings: loops,
    max_repeated_plan_events: repeats,
    max_tool_latency_ms: latency,
    max_events_without_evidence: noEvidence,
  };
}

/** Budgets an operator let the session go past: those a resumed health pause or an approved health approval named. */
export function waivedBudgets(events: readonly StreamEvent[]): Set<string> {
  const waived = new Set<string>();
  const asked = new Map<string, string[]>();
  let paused: string[] = [];
  for (const e of events) {
    const d = e.data as Data;
    if (e.type === "session_checkpoint" && d.checkpoint_type === "health_pause")
      paused = (d.budgets as string[] | undefined) ?? [];
    else if (e.type === "session_state" && d.status === "running") {
      paused.forEach((b) => waived.add(b));
      paused = [];
    } else if (e.type === "approval_required" && d.budgets) asked.set(String(d.request_id), d.budgets as string[]);
    else if (e.type === "approval_applied" && d.decision === "approve")
      asked.get(String(d.request_id))?.forEach((b) => waived.add(b));
  }
  return waived;
}

export function healthOf(input: HealthInput): HealthSnapshot {
  const { events, state } = input;
  const m = measure(events, input.now);
  const diagnostics = events.filter((e) => e.type === "transport_diagnostic").length;
  const attempts = state.attempt_count ?? 0;
  const stuck =
    ENFORCED_IN.has(state.status) && input.heartbeatAt !== null && input.now - input.heartbeatAt > input.staleMs;
  const degraded = diagnostics > 0 || m.max_failed_tool_calls > 0 || attempts > 1 || state.status === "recovering";
  let score = 1;
  score -=
    0.1 * Math.min(3, diagnostics) +
    0.1 * Math.min(3, m.max_failed_tool_calls) +
    0.1 * Math.min(3, m.max_loop_warnings);
  score -=
    0.1 * Math.min(2, m.max_repeated_plan_events) +
    0.15 * Math.min(2, m.max_events_without_evidence) +
    0.1 * Math.min(3, Math.max(0, attempts - 1));
  if (stuck) score -= 0.3;
  if (state.status === "failed") score = 0;
  score = Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
  const waived = waivedBudgets(events);
  // A failed session's score is 0 because it failed, not because it declined past its floor: no budget speaks for it
  // (issue 41: no budget flag, no "approve to go on" when nothing waits).
  const failed = state.status === "failed";
  const budgets = Object.entries(budgetsOf(input.policy)).map(([name, limit]) => {
    const value = name === "min_score" ? score : m[name as Exclude<BudgetName, "min_score">];
    const crossed = name === "min_score" ? !failed && value < limit : value > limit;
    return { name, limit, value, crossed, waived: waived.has(name) };
  });
  return {
    session_id: state.session_id,
    status: state.status,
    score,
    flags: {
      stuck,
      waiting: state.status === "awaiting_approval",
      degraded,
      budget: !failed && budgets.some((b) => b.crossed && !b.waived),
    },
    budgets,
    memory_provenance: provenance(events),
    audit: audit(events),
    recovery_hints: hints(state, stuck, diagnostics, budgets, events),
    through_event_id: events.length ? eventId(events.at(-1)!.stream, events.at(-1)!.seq) : null,
  };
}

/** Crossed budgets an enforced policy acts on (not waived), for a session in a status budgets act in. */
export function tripped(snapshot: HealthSnapshot, policy: HealthPolicy): string[] {
  if (policy.enforcement.mode !== "enforce" || !ENFORCED_IN.has(snapshot.status)) return [];
  return snapshot.budgets.filter((b) => b.crossed && !b.waived).map((b) => b.name);
}

function provenance(events: readonly StreamEvent[]): HealthSnapshot["memory_provenance"] {
  const cited = new Map<string, { chunk_hash: string; source_path: string; times_cited: number }>();
  for (const e of events) {
    if (e.type !== "response") continue;
    for (const c of (e.data as { citations: { chunk_hash: string; source_path: string }[] }).citations) {
      const row = cited.get(c.chunk_hash) ?? { chunk_hash: c.chunk_hash, source_path: c.source_path, times_cited: 0 };
      cited.set(c.chunk_hash, { ...row, times_cited: row.times_cited + 1 });
    }
  }
  return [...cited.values()].sort((a, b) => b.times_cited - a.times_cited).slice(0, PROVENANCE);
}

function audit(events: readonly StreamEvent[]): HealthSnapshot["audit"] {
  const rows: HealthSnapshot["audit"] = [];
  let status = "";
  for (const e of events) {
    const d = e.data as Data;
    let summary: string | null = null;
    if (e.type === "session_state" && d.status !== status)
      [summary, status] = [
        `${status || "created"} -> ${String(d.status)}${d.last_error ? ` (${String(d.last_error)})` : ""}`,
        String(d.status),
      ];
    else if (e.type === "approval_required") summary = `approval asked for ${String(d.tool_name)}: ${String(d.reason)}`;
    else if (e.type === "approval_applied") summary = `${String(d.decision)} ${String(d.tool_name)}`;
    else if (e.type === "policy_decision" && d.outcome !== "allow")
      summary = `${String(d.subject)}: ${String(d.outcome)} (${String(d.reason)})`;
    else if (e.type === "session_checkpoint" && d.checkpoint_type !== "step")
      summary = `checkpoint ${String(d.checkpoint_type)}: ${String(d.summary_text)}`;
    else if (e.type === "transport_diagnostic") summary = `provider ${String(d.status)}: ${String(d.reason)}`;
    else if (e.type === "error") summary = `error ${String(d.code)}: ${String(d.message)}`;
    if (summary)
      rows.push({
        event_id: eventId(e.stream, e.seq),
        at: new Date(e.at).toISOString(),
        type: e.type,
        summary: clip(summary, 300),
      });
  }
  return rows.slice(-AUDIT_ROWS);
}

function hints(
  state: State,
  stuck: boolean,
  diagnostics: number,
  budgets: { name: string; crossed: boolean; waived: boolean }[],
  events: readonly StreamEvent[],
): string[] {
  const id = state.session_id;
  const out: string[] = [];
  if (state.status === "awaiting_approval")
    out.push(
      `Approve or deny request ${String(state.approval_request_id)}: POST /sessions/${id}/approvals/${String(state.approval_request_id)}.`,
    );
  if (state.status === "paused")
    out.push(`Requeue it with POST /sessions/${id}/resume (budgets that paused it are then waived).`);
  if (stuck) out.push("The run's heartbeat stopped: the supervisor recovers it from its last checkpoint.");
  if (diagnostics) out.push("A provider failed over to the next: check SMRITI_LLM_BASE_URL and the provider's health.");
  const crossed = state.status === "failed" ? [] : budgets.filter((b) => b.crossed && !b.waived).map((b) => b.name);
  // "Approve to go on" only where an approval waits; a paused session goes on by a resume, which waives them.
  const goOn =
    { awaiting_approval: ", or approve to go on", paused: ", or resume (which waives them)" }[state.status as string] ??
    "";
  if (crossed.length)
    out.push(`Over budget (${crossed.join(", ")}): raise the limit in a new session's metadata.policy${goOn}.`);
  if (state.status === "failed" || state.status === "cancelled") {
    const last = events.findLast((e) => e.type === "session_checkpoint" && (e.data as Data).resume_cursor);
    if (last)
      out.push(
        `Branch a new run from the last checkpoint: POST /sessions/${id}/resume with {"resume_cursor": "${String((last.data as Data).resume_cursor)}"}.`,
      );
  }
  return out;
}
