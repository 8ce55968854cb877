// The session and agent events (SPEC "Session and agent events"): one schema per type, with its tier and whether it is persisted.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { HealthSnapshot } from "./health.ts";

/** default: shown in the operator's default view; debug: only in the debug view (SPEC rules 1-2). */
export type Tier = "default" | "debug";

export interface EventType<S extends z.ZodType = z.ZodType> {
  tier: Tier;
  /** Stored in the session event log (SPEC's "Persisted" column; health_snapshot: not stated there, kept unpersisted). */
  persisted: boolean;
  /** What emits it, as the spec's table says. */
  emittedBy: string;
  data: S;
}

const event = <S extends z.ZodType>(tier: Tier, persisted: boolean, emittedBy: string, data: S): EventType<S> => ({
  tier,
  persisted,
  emittedBy,
  data,
});

const id = z.string().min(1);
const turn = { turn_id: id };
const count = z.number().int().min(0);

/** The spec's session_state common fields; the background fields are optional, and the state is additive (rule: new fields never break clients). */
export const SessionState = z.looseObject({
  session_id: id,
  status: z.string(),
  provider: z.string(),
  model: z.string(),
  agent_profile: z.string(),
  permission_mode: z.enum(["read-only", "workspace-write", "full"]),
  approval_mode: z.enum(["never", "on-write", "always"]),
  think_level: z.string(),
  policy_path: z.string().nullable(),
  sandbox_mode: z.string(),
  sandbox_isolation: z.string(),
  engine: z.string().optional(),
  runner_kind: z.string().optional(),
  approval_request_id: z.string().nullable().optional(),
  workspace_id: z.string().optional(),
  task_graph_id: z.string().nullable().optional(),
  process_id: z.string().nullable().optional(),
  attempt_count: count.optional(),
  max_retries: count.optional(),
  expires_at: z.string().nullable().optional(),
  parent_session_id: z.string().nullable().optional(),
  branch_source_event_id: z.string().nullable().optional(),
  branch_resume_cursor: z.string().nullable().optional(),
  last_heartbeat_at: z.string().nullable().optional(),
  last_error: z.string().nullable().optional(),
  updated_at: z.string().optional(),
  ended_at: z.string().nullable().optional(),
  resume_context: z.unknown().optional(),
  // Additive (this service's own): the session's context budget and tool timeout.
  context_budget_tokens: count.optional(),
  tool_timeout_ms: count.optional(),
});

export const ToolOutcomeStatus = z.enum(["ok", "timeout", "error", "denied", "artifact"]);

/** Every event type a session stream can carry, in the spec's table order. */
export const sessionEvents = {
  session: event("default", false, "chat bootstrap", z.object({ session_id: id })),
  session_state: event("default", true, "chat and background runtime", SessionState),
  session_checkpoint: event(
    "default",
    true,
    "background runtime",
    z.object({
      session_id: id,
      sequence: count,
      checkpoint_type: z.string(),
      status: z.string(),
      summary_text: z.string(),
      resume_cursor: z.string().nullable(),
      // Additive: a typed artifact the checkpoint persists (task graph, task workspace, run record, final output).
      artifact: z.looseObject({ type: z.string() }).optional(),
      // Additive: the health budgets a health_pause checkpoint paused for (resuming waives them).
      budgets: z.array(z.string()).optional(),
    }),
  ),
  policy_decision: event(
    "debug",
    true,
    "chat and background runtime",
    z.object({
      subject: z.string(),
      outcome: z.enum(["allow", "deny", "ask"]),
      reason: z.string(),
      source: z.string(),
      policy_path: z.string().nullable(),
      permission_mode: z.string(),
      approval_mode: z.string(),
    }),
  ),
  hook_event: event(
    "debug",
    true,
    "harness callbacks",
    z.object({
      hook: z.string(),
      phase: z.enum(["before", "after"]),
      tool_call_id: id,
      tool_name: z.string(),
      status: z.enum(["ok", "error"]),
    }),
  ),
  sandbox_notice: event(
    "debug",
    true,
    "chat and background runtime",
    z.object({
      requested_backend: z.string(),
      resolved_backend: z.string(),
      isolation: z.string(),
      reason: z.string(),
    }),
  ),
  transport_diagnostic: event(
    "debug",
    true,
    "chat finalizer",
    z.object({
      status: z.string(),
      kind: z.string(),
      provider_requested: z.string(),
      provider_actual: z.string(),
      reason: z.string(),
      failure_count: count,
    }),
  ),
  subagent_event: event(
    "debug",
    true,
    "subagent registry and tool callbacks",
    z.object({
      agent_id: id,
      status: z.string(),
      parent_session_id: id,
      session_id: z.string().optional().describe("The sub-agent's own session (its full log)."),
      question: z.string().optional(),
      answer: z.string().nullable().optional(),
      citations: count.optional(),
    }),
  ),
  turn_start: event("debug", true, "harness callbacks", z.object({ ...turn, message: z.string() })),
  turn_start_tools: event("debug", true, "harness callbacks", z.object({ ...turn, tools: z.array(z.string()) })),
  token: event("default", true, "provider streaming and harness", z.object({ ...turn, text: z.string() })),
  response: event(
    "default",
    true,
    "provider streaming and harness",
    z.object({ ...turn, text: z.string(), citations: z.array(Citation) }),
  ),
  thinking: event(
    "default",
    true,
    "harness and reflection engine",
    z.object({ ...turn, text: z.string().describe("The agent's stated plan; never invented hidden reasoning.") }),
  ),
  reflection: event(
    "default",
    true,
    "harness and reflection engine",
    z.object({ ...turn, check: z.string(), passed: z.boolean(), detail: z.string() }),
  ),
  tool_call: event(
    "default",
    true,
    "harness callback",
    z.object({
      name: z.string(),
      arguments: z.looseObject({ _tool_call_id: z.string().optional() }),
      tool_call_id: id,
    }),
  ),
  tool_result: event(
    "default",
    true,
    "post-hook success path",
    z.object({ tool_call_id: id, tool_name: z.string(), result: z.record(z.string(), z.unknown()) }),
  ),
  tool_outcome: event(
    "default",
    true,
    "typed tool outcome path",
    z.object({
      tool_call_id: id,
      tool_name: z.string(),
      outcome_type: z.string(),
      status: ToolOutcomeStatus,
      elapsed_ms: count,
      result: z.record(z.string(), z.unknown()),
    }),
  ),
  tool_batch: event("debug", true, "harness scheduler", z.object({ ...turn, tool_call_ids: z.array(id).min(2) })),
  tool_selected: event(
    "debug",
    true,
    "semantic tool selection",
    z.object({ ...turn, offered: z.array(z.object({ name: z.string(), score: z.number() })) }),
  ),
  tool_validation_error: event(
    "debug",
    true,
    "argument validation and repair loop",
    z.object({
      tool_call_id: id,
      tool_name: z.string(),
      attempt: count,
      issues: z.array(z.unknown()),
      arguments: z.string().describe("The arguments as the model wrote them."),
    }),
  ),
  context_warning: event(
    "default",
    true,
    "context warning tracker",
    z.object({ used_tokens: count, budget_tokens: count, threshold: z.number().min(0).max(1) }),
  ),
  context_compacted: event(
    "default",
    true,
    "compactor",
    z.object({
      original_count: count,
      compacted_count: count,
      tokens_saved: count,
      summary: z.string(),
      preserved_messages: count,
      resume_cursor: z.string(),
    }),
  ),
  step_progress: event(
    "default",
    true,
    "native agentic background runtime",
    z.object({
      step: count,
      total: count.nullable(),
      label: z.string(),
      status: z.string(),
      // Additive: what the step cost, so budgets see it before the turn's usage event.
      turn_id: z.string().optional(),
      input_tokens: count.optional(),
      output_tokens: count.optional(),
      cost_usd: z.number().min(0).nullable().optional(),
      context_tokens: count.optional(),
      budget_tokens: count.optional(),
    }),
  ),
  usage: event(
    "debug",
    true,
    "turn finalizer",
    z.object({ ...turn, input_tokens: count, output_tokens: count, cost_usd: z.number().min(0).nullable() }),
  ),
  retrieval: event(
    "default",
    true,
    "chat completion",
    z.object({
      ...turn,
      citations: z.array(Citation),
      pack: z.object({ items: count, used_tokens: count, budget_tokens: count }).nullable(),
    }),
  ),
  cognition: event(
    "default",
    true,
    "chat cognition summary (the spec's 'the service' row)",
    z.object({
      ...turn,
      layers: z.array(z.string()).describe("Layers that changed something in the turn's look-ups."),
      guardrails: z.array(z.string()).describe("Flags such as injection-like text or contradictions."),
    }),
  ),
  approval_required: event(
    "default",
    true,
    "chat and background runtime",
    z.object({
      request_id: id,
      tool_name: z.string(),
      reason: z.string(),
      turn_id: z.string().optional(),
      tool_call_id: z.string().optional(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      /** The calls of the paused wave still to run, this one first: the turn goes on with them after the decision. */
      pending: z.array(z.object({ id, name: z.string(), arguments: z.string() })).optional(),
      /** A health-policy approval: the budgets crossed (approving waives them for the rest of the session). */
      budgets: z.array(z.string()).optional(),
    }),
  ),
  approval_applied: event(
    "default",
    true,
    "chat and background runtime",
    z.object({ request_id: id, tool_name: z.string(), decision: z.enum(["approve", "deny"]) }),
  ),
  turn_end: event(
    "default",
    true,
    "chat and background runtime",
    z.object({ ...turn, status: z.enum(["completed", "error", "awaiting_approval", "cancelled"]) }),
  ),
  completed: event("default", true, "chat and background runtime", z.object({ session_id: id })),
  error: event(
    "default",
    true,
    "chat and background runtime",
    z.object({ code: z.string(), message: z.string(), turn_id: z.string().nullable() }),
  ),
  health_snapshot: event("default", false, "health stream route", HealthSnapshot),
};

export type SessionEventType = keyof typeof sessionEvents;
export type SessionEventData<K extends SessionEventType> = z.infer<(typeof sessionEvents)[K]["data"]>;

/** GET /stream-events: every type a session stream can carry, as the console must handle them (SPEC rule 7). */
export const streamEventList = () =>
  Object.entries(sessionEvents).map(([type, e]) => ({
    type,
    tier: e.tier,
    persisted: e.persisted,
    emitted_by: e.emittedBy,
  }));

/** The last event of what one message (or one approval decision) streams back: the turn ended, failed, or waits for an operator. */
export const endsTurnSegment = (type: string, data: unknown) =>
  type === "completed" ||
  type === "error" ||
  (type === "turn_end" && (data as { status?: string }).status === "awaiting_approval");
