// The session event registry against the spec's "Session and agent events" table and its payload tables.
import { describe, expect, it } from "vitest";
import { sessionEvents, type SessionEventType } from "../../src/contract/events.ts";
import { SPEC } from "../helpers/spec-events.ts";

/** Payloads with exactly the fields the spec names for them (Resources: tool lifecycle and other payload shapes). */
const SPEC_PAYLOADS: Partial<Record<SessionEventType, Record<string, unknown>>> = {
  tool_call: { name: "service_recall", arguments: { query: "x", _tool_call_id: "call_1" }, tool_call_id: "call_1" },
  tool_outcome: {
    tool_call_id: "call_1",
    tool_name: "service_recall",
    outcome_type: "citations",
    status: "ok",
    elapsed_ms: 12,
    result: { hits: 3 },
  },
  approval_required: { request_id: "apr_1", tool_name: "write_file", reason: "on-write approval" },
  context_compacted: {
    original_count: 40,
    compacted_count: 12,
    tokens_saved: 5000,
    summary: "Earlier turns: ...",
    preserved_messages: 8,
    resume_cursor: "cur_3",
  },
  session_checkpoint: {
    session_id: "ses_1",
    sequence: 3,
    checkpoint_type: "turn",
    status: "running",
    summary_text: "after turn 3",
    resume_cursor: null,
  },
  policy_decision: {
    subject: "write_file",
    outcome: "ask",
    reason: "approval_mode on-write",
    source: "policy",
    policy_path: null,
    permission_mode: "workspace-write",
    approval_mode: "on-write",
  },
  sandbox_notice: {
    requested_backend: "bubblewrap",
    resolved_backend: "process",
    isolation: "weaker",
    reason: "bwrap not installed",
  },
  transport_diagnostic: {
    status: "fallback",
    kind: "http_500",
    provider_requested: "openai",
    provider_actual: "extractive",
    reason: "500 from the server",
    failure_count: 1,
  },
  subagent_event: { agent_id: "sub_1", status: "completed", parent_session_id: "ses_1" },
  session_state: {
    session_id: "ses_1",
    status: "running",
    provider: "extractive",
    model: "none",
    agent_profile: "default",
    permission_mode: "read-only",
    approval_mode: "on-write",
    think_level: "normal",
    policy_path: null,
    sandbox_mode: "process",
    sandbox_isolation: "weaker",
  },
};

describe("session event registry", () => {
  it("has exactly the spec's event types, each with the spec's tier and persistence", () => {
    expect(Object.keys(sessionEvents).sort()).toEqual(SPEC.map(([type]) => type).sort());
    for (const [type, persisted, tier] of SPEC)
      expect({
        type,
        persisted: sessionEvents[type as SessionEventType].persisted,
        tier: sessionEvents[type as SessionEventType].tier,
      }).toEqual({ type, persisted, tier });
  });

  it("accepts the payload fields the spec gives, and rejects each of them missing", () => {
    for (const [type, payload] of Object.entries(SPEC_PAYLOADS)) {
      const schema = sessionEvents[type as SessionEventType].data;
      expect(schema.safeParse(payload).success, type).toBe(true);
      for (const field of Object.keys(payload)) {
        const { [field]: _dropped, ...rest } = payload;
        expect(schema.safeParse(rest).success, `${type} without ${field}`).toBe(false);
      }
    }
  });

  it("tool_outcome.status is one of ok, timeout, error, denied, artifact; session_state is additive", () => {
    const outcome = SPEC_PAYLOADS.tool_outcome!;
    for (const status of ["ok", "timeout", "error", "denied", "artifact"])
      expect(sessionEvents.tool_outcome.data.safeParse({ ...outcome, status }).success).toBe(true);
    expect(sessionEvents.tool_outcome.data.safeParse({ ...outcome, status: "done" }).success).toBe(false);
    const state = sessionEvents.session_state.data.parse({ ...SPEC_PAYLOADS.session_state, a_later_field: 1 });
    expect(state).toMatchObject({ a_later_field: 1 });
  });
});
