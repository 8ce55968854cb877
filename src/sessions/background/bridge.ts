// What both bridge engines do around handing the task on: the policy check (the bridged agent is one "tool" whose name
// is the engine's), the approval it may wait for, and the sandbox notice. They emit no per-tool events (SPEC "Bridge engines").
import { AppError } from "../../contract/errors.ts";
import { sandboxFor, type Execution, type ExecutionPlan } from "../policy/rules.ts";
import type { Sandbox, SandboxMode } from "../policy/sandbox.ts";
import { newRequestId } from "../ids.ts";
import { decide, type PolicyFile, type PolicySource } from "../policy/policy.ts";
import type { RunContext, RunOutcome } from "./engine.ts";

type Data = Record<string, unknown>;

/**
 * Logs the policy decision for handing the task to `subject`; null when it may go ahead,
 * else how the run ends (denied, or waiting for an operator). An operator's decision on an earlier request counts.
 */
export async function gate(
  ctx: RunContext,
  subject: string,
  writes: boolean,
  policies: PolicySource,
): Promise<RunOutcome | null> {
  const { state, emit } = ctx;
  // An unreadable policy file stops the run: going on without its deny rules would be worse.
  let policy: PolicyFile | null = null;
  if (state.policy_path) {
    try {
      policy = await policies(state.policy_path);
    } catch (err) {
      return {
        status: "error",
        code: "invalid_request",
        message: err instanceof Error ? err.message : String(err),
        transient: false,
      };
    }
  }
  let d = decide({ name: subject, writes }, state, policy);
  if (d.outcome === "ask") {
    const decided = lastDecision(ctx, subject);
    if (decided)
      d =
        decided === "approve"
          ? { outcome: "allow", reason: "an operator approved it", source: d.source }
          : { outcome: "deny", reason: "an operator denied it", source: d.source };
  }
  await emit("policy_decision", {
    subject,
    outcome: d.outcome,
    reason: d.reason,
    source: d.source,
    policy_path: state.policy_path,
    permission_mode: state.permission_mode,
    approval_mode: state.approval_mode,
  });
  if (d.outcome === "deny")
    return { status: "error", code: "policy_denied", message: `${subject}: ${d.reason}`, transient: false };
  if (d.outcome === "allow") return null;
  const requestId = newRequestId();
  const waiting = {
    ...state,
    status: "awaiting_approval",
    approval_request_id: requestId,
    updated_at: new Date().toISOString(),
  };
  const logged = await ctx.awaitApproval([
    { type: "approval_required", data: { request_id: requestId, tool_name: subject, reason: d.reason } },
    { type: "session_state", data: waiting },
  ]);
  return { status: logged ? "awaiting_approval" : "stopped" };
}

/**
 * The run's plan from the catalog as it stands now, and its sandbox: an entry removed since the start, or a host that
 * lost its isolation, ends the run (not transient) instead of running it on what the start saw.
 */
export function replan<E extends "command" | "a2a">(
  ctx: RunContext,
  execution: Execution,
  engine: E,
): { plan: Extract<ExecutionPlan, { engine: E }>; sandbox: Sandbox } | RunOutcome {
  try {
    const plan = execution.rules.plan(ctx.call.workspaceName, { ...ctx.resume, engine });
    if (plan.engine !== engine) throw new Error(`a ${engine} session planned as ${plan.engine}`);
    return {
      plan: plan as Extract<ExecutionPlan, { engine: E }>,
      sandbox: sandboxFor(execution, ctx.state.sandbox_mode as SandboxMode, plan, false),
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: "error", code: err.code, message: err.message, transient: false };
  }
}

export const notice = (ctx: RunContext, sandbox: Pick<Sandbox, "requested" | "resolved" | "isolation" | "reason">) =>
  ctx.emit("sandbox_notice", {
    requested_backend: sandbox.requested,
    resolved_backend: sandbox.resolved,
    isolation: sandbox.isolation,
    reason: sandbox.reason,
  });

/** The decision on the latest approval asked for `subject`, if one was applied. */
function lastDecision(ctx: RunContext, subject: string): "approve" | "deny" | null {
  const asked = ctx.events.findLast((e) => e.type === "approval_required" && (e.data as Data).tool_name === subject);
  if (!asked) return null;
  const applied = ctx.events.find(
    (e) => e.type === "approval_applied" && (e.data as Data).request_id === (asked.data as Data).request_id,
  );
  return applied ? ((applied.data as Data).decision as "approve" | "deny") : null;
}
