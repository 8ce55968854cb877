// One tool call's lifecycle (SPEC "Tool call lifecycle"): policy, approval, sandbox notice, hooks, the call under a
// timeout, then tool_result on the post-hook success path only and tool_outcome always.
import { AppError, errorBody } from "../../contract/errors.ts";
import type { SessionEventData } from "../../contract/events.ts";
import { decide, hooksFor, type Hook, type PolicyFile } from "../policy/policy.ts";
import type { Isolation, Sandbox } from "../policy/sandbox.ts";
import type { SessionEventItem } from "../log/session-log.ts";
import type { TurnWriter } from "../turn/turn-writer.ts";
import type { SessionTool, ToolContext, ToolRun } from "./tool.ts";

type State = SessionEventData<"session_state">;
type Status = SessionEventData<"tool_outcome">["status"];

export interface ValidCall {
  id: string;
  name: string;
  /** Already checked against the tool's schema. */
  input: Record<string, unknown>;
  /** As the model wrote them (what an approval keeps). */
  raw: string;
}

export interface CallScope extends ToolContext {
  state: State;
  /** The turn's one writer: the call's events are logged through it. */
  writer: TurnWriter;
  policy: PolicyFile | null;
  sandbox: Sandbox;
  isolation: Isolation;
  timeoutMs: number;
  now(): number;
  /** A sandbox notice goes out once per turn for hooks and once for file tools, before the first call that needs it. */
  notified: { hooks: boolean; files: boolean };
}

/** An operator's answer to this call's approval request, when it had one. */
export type Decided = "approve" | "deny" | undefined;

const OUTCOME_TYPE: Record<Status, string> = {
  ok: "json",
  artifact: "file",
  error: "error",
  timeout: "timeout",
  denied: "denial",
};

class HookFailed extends Error {}

/** What file tools get, whatever the sandbox: said as plainly as the sandbox's own isolation. */
const FILE_TOOLS_ISOLATION =
  "weaker: the service's own process; paths are confined to the task workspace and may not pass through symbolic links";

/** Runs the call, or returns "ask" when it must wait for an operator (nothing about it is logged yet but the policy decision). */
export async function runCall(
  scope: CallScope,
  tool: SessionTool,
  call: ValidCall,
  decided: Decided,
): Promise<Status | "ask"> {
  const outcome = (status: Status, result: Record<string, unknown>, started: number): SessionEventItem => ({
    type: "tool_outcome",
    data: {
      tool_call_id: call.id,
      tool_name: tool.name,
      outcome_type: OUTCOME_TYPE[status],
      status,
      elapsed_ms: Math.round(scope.now() - started),
      result,
    },
  });
  /** Logs the events that end the call together, then returns its status. */
  const end = async (items: SessionEventItem[], status: Status) => {
    await scope.writer.writeAll(items);
    return status;
  };
  /** What is decided before the call starts, logged with its start (or with its outcome when it never starts). */
  const lead: SessionEventItem[] = [];
  if (decided === "deny")
    return end([outcome("denied", { reason: "an operator denied the call" }, scope.now())], "denied");
  if (decided === undefined) {
    const d = decide(tool, scope.state, scope.policy);
    const { policy_path, permission_mode, approval_mode } = scope.state;
    lead.push({
      type: "policy_decision",
      data: {
        subject: tool.name,
        outcome: d.outcome,
        reason: d.reason,
        source: d.source,
        policy_path,
        permission_mode,
        approval_mode,
      },
    });
    if (d.outcome === "deny") return end([...lead, outcome("denied", { reason: d.reason }, scope.now())], "denied");
    if (d.outcome === "ask") {
      await scope.writer.writeAll(lead);
      return "ask";
    }
  }
  const hooks = {
    before: hooksFor(scope.policy, "before", tool.name),
    after: hooksFor(scope.policy, "after", tool.name),
  };
  const s = scope.sandbox;
  if ((hooks.before.length || hooks.after.length) && !scope.notified.hooks) {
    scope.notified.hooks = true;
    lead.push({
      type: "sandbox_notice",
      data: {
        requested_backend: s.requested,
        resolved_backend: s.resolved,
        isolation: `hooks: ${s.isolation}`,
        reason: s.reason,
      },
    });
  }
  if (tool.files && !scope.notified.files) {
    scope.notified.files = true;
    lead.push({
      type: "sandbox_notice",
      data: {
        requested_backend: s.requested,
        resolved_backend: "in-process",
        isolation: FILE_TOOLS_ISOLATION,
        reason: "file tools run inside the service; only hooks run under the sandbox",
      },
    });
  }
  lead.push({
    type: "tool_call",
    data: { name: tool.name, arguments: { ...call.input, _tool_call_id: call.id }, tool_call_id: call.id },
  });
  await scope.writer.writeAll(lead);
  const started = scope.now();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), scope.timeoutMs);
  const hook = async (h: Hook, phase: Hook["phase"], result?: Record<string, unknown>) => {
    if (timeout.signal.aborted) return; // the call already ended as a timeout: nothing more of it is logged
    const input = JSON.stringify({
      phase,
      session_id: scope.sessionId,
      tool_call_id: call.id,
      tool_name: tool.name,
      arguments: call.input,
      ...(result ? { result } : {}),
    });
    const run = await scope.isolation.hook(scope.sandbox, h.command, scope.taskDir, input, timeout.signal);
    if (timeout.signal.aborted) return; // killed by the timeout, whose tool_outcome is the call's last word (issue 41)
    await scope.writer.write("hook_event", {
      hook: h.name,
      phase,
      tool_call_id: call.id,
      tool_name: tool.name,
      status: run.ok ? "ok" : "error",
    });
    if (!run.ok) throw new HookFailed(`${phase} hook '${h.name}' failed (${run.detail})`);
  };
  try {
    const run = await Promise.race([
      (async (): Promise<ToolRun | "blocked"> => {
        try {
          for (const h of hooks.before) await hook(h, "before");
        } catch (err) {
          if (err instanceof HookFailed) return "blocked";
          throw err;
        }
        const done = await tool.run(scope, call.input, timeout.signal);
        for (const h of hooks.after) await hook(h, "after", done.result);
        return done;
      })(),
      new Promise<"timeout">((resolve) => timeout.signal.addEventListener("abort", () => resolve("timeout"))),
    ]);
    if (run === "timeout")
      return await end([outcome("timeout", { reason: `no result within ${scope.timeoutMs} ms` }, started)], "timeout");
    if (run === "blocked")
      return await end([outcome("denied", { reason: "a before hook blocked the call" }, started)], "denied");
    const status = run.artifact ? "artifact" : "ok";
    return await end(
      [
        { type: "tool_result", data: { tool_call_id: call.id, tool_name: tool.name, result: run.result } },
        outcome(status, run.result, started),
      ],
      status,
    );
  } catch (err) {
    const e =
      err instanceof AppError ? err : new AppError("internal_error", err instanceof Error ? err.message : String(err));
    return await end([outcome("error", errorBody(e), started)], "error");
  } finally {
    clearTimeout(timer);
  }
}
