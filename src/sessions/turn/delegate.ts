// The delegate tool: a read-only sub-agent session answers one sub-question with a turn of its own; its snapshot is kept
// on the parent (subagent_event, through the parent turn's writer).
import { z } from "zod";
import { AppError } from "../../contract/errors.ts";
import type { SessionEventData } from "../../contract/events.ts";
import { toolSchema } from "../../contract/tool-schema.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { newAgentId, newSessionId, newTurnId } from "../ids.ts";
import { SUBAGENT_PROFILE } from "../policy/policy.ts";
import { commonFields } from "../session-state.ts";
import type { CallScope } from "../tools/tool-runner.ts";
import type { SessionTool } from "../tools/tool.ts";
import type { HarnessDeps, State, TurnOutcome } from "./turn-state.ts";

/** Runs a sub-agent's turn in its own session (the harness's `turn`). */
export type SubTurn = (
  call: CallContext,
  sessionId: string,
  state: State,
  turnId: string,
  message: string,
  signal?: AbortSignal,
) => Promise<TurnOutcome>;

export function delegateTool(deps: Pick<HarnessDeps, "log" | "leases">, subTurn: SubTurn): SessionTool {
  const input = z.strictObject({
    question: z.string().trim().min(1).max(2_000).describe("One self-contained sub-question."),
  });
  return {
    name: "delegate",
    description:
      "Hand one sub-question to a sub-agent that answers it from memory with citations; use it to split a multi-part question.",
    parameters: toolSchema(input, "input"),
    input,
    writes: false,
    run: async (ctx, raw, signal) => {
      const { question } = raw as { question: string };
      const scope = ctx as CallScope;
      const parent = scope.state;
      const [agentId, sessionId] = [newAgentId(), newSessionId()];
      const snapshot = { agent_id: agentId, parent_session_id: ctx.sessionId, session_id: sessionId, question };
      await scope.writer.write("subagent_event", { ...snapshot, status: "running" });
      // The parent's policy file goes with it (its denies and hooks hold); with no operator to ask, its asks deny.
      const state: State = {
        ...commonFields(parent),
        session_id: sessionId,
        status: "idle",
        agent_profile: SUBAGENT_PROFILE,
        permission_mode: "read-only",
        approval_mode: "never",
        parent_session_id: ctx.sessionId,
      };
      const { log, leases } = deps;
      await log.append(ctx.call.workspaceId, sessionId, "session_state", state);
      // Held like any chat turn's: another process reading the sub-session sees it running, not cut off.
      const hold = await leases.take({ workspaceId: ctx.call.workspaceId, sessionId });
      try {
        await subTurn(ctx.call, sessionId, state, newTurnId(), question, hold?.lost);
      } finally {
        if (hold) await leases.release(hold);
      }
      // Timed out meanwhile: the parent's call has ended, so nothing more is said in its log (the sub-agent's own log keeps all).
      if (signal.aborted) return { result: { agent_id: agentId, session_id: sessionId } };
      const events = await log.all(ctx.call.workspaceId, sessionId);
      const response = events.findLast((e) => e.type === "response")?.data as SessionEventData<"response"> | undefined;
      const failed = events.at(-1)?.type === "error";
      await scope.writer.write("subagent_event", {
        ...snapshot,
        status: failed ? "failed" : "completed",
        answer: response?.text ?? null,
        citations: response?.citations.length ?? 0,
      });
      if (failed || !response)
        throw new AppError(
          "internal_error",
          `the sub-agent failed: ${String((events.at(-1)?.data as { message?: string }).message ?? "no answer")}`,
        );
      return {
        result: {
          agent_id: agentId,
          session_id: sessionId,
          question,
          answer: response.text,
          citations: response.citations,
        },
      };
    },
  };
}
