// A wave of a step's tool calls, run in order through the tool runner; a call that needs an operator pauses the turn
// (approval_required, the state awaiting_approval, turn_end) with the rest of the wave kept for after the decision.
import { AppError } from "../../contract/errors.ts";
import type { ToolCallRequest } from "../../ports/llm.ts";
import { newRequestId } from "../ids.ts";
import { runCall, type Decided, type ValidCall } from "../tools/tool-runner.ts";
import type { SessionTool } from "../tools/tool.ts";
import { stopPoint, type HarnessDeps, type Turn } from "./turn-state.ts";

/** Runs the calls in order (`first` is an operator's decision on the first); false when one waits for approval. */
export async function runWave(
  deps: HarnessDeps,
  tools: readonly SessionTool[],
  t: Turn,
  calls: readonly ToolCallRequest[],
  first: Decided,
): Promise<boolean> {
  if (calls.length > 1)
    await t.writer.write("tool_batch", { turn_id: t.turnId, tool_call_ids: calls.map((c) => c.id) });
  for (const [i, c] of calls.entries()) {
    stopPoint(t);
    const tool = t.offered.find((o) => o.name === c.name) ?? tools.find((o) => o.name === c.name);
    const input = tool?.input.safeParse(JSON.parse(c.arguments));
    if (!tool || !input?.success) throw new AppError("internal_error", `tool call ${c.id} can no longer be run`);
    const call: ValidCall = { id: c.id, name: c.name, input: input.data as Record<string, unknown>, raw: c.arguments };
    const status = await runCall(t.scope, tool, call, i === 0 ? first : undefined);
    if (status === "ask") {
      await pause(deps, t, tool, call, calls.slice(i));
      return false;
    }
  }
  return true;
}

async function pause(
  deps: HarnessDeps,
  t: Turn,
  tool: SessionTool,
  call: ValidCall,
  pending: readonly ToolCallRequest[],
): Promise<void> {
  const requestId = newRequestId();
  const reason = tool.writes
    ? `${tool.name} changes what the workspace holds`
    : `${tool.name} needs an operator's approval in this session`;
  await t.writer.writeAll([
    {
      type: "approval_required",
      data: {
        request_id: requestId,
        tool_name: tool.name,
        reason,
        turn_id: t.turnId,
        tool_call_id: call.id,
        arguments: call.input,
        pending: pending.map((p) => ({ id: p.id, name: p.name, arguments: p.arguments })),
      },
    },
    {
      type: "session_state",
      data: {
        ...t.state,
        status: "awaiting_approval",
        approval_request_id: requestId,
        updated_at: deps.clock.now().toISOString(),
      },
    },
    { type: "turn_end", data: { turn_id: t.turnId, status: "awaiting_approval" } },
  ]);
}
