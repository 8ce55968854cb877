// The native engine: the task is one turn of Smriti's own harness. A run goes on from what the log holds: a new turn,
// the rest of a turn cut off or stopped, or the wave an operator's decision released (no call with an outcome runs twice).
import type { SessionEventData } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import type { Harness } from "../turn/harness.ts";
import { newTurnId } from "../ids.ts";
import type { SessionLog } from "../log/session-log.ts";
import type { BackgroundEngine, RunContext, RunOutcome } from "./engine.ts";

type Approval = SessionEventData<"approval_required">;
type Data = Record<string, unknown>;

export class NativeEngine implements BackgroundEngine {
  readonly id = "native";
  constructor(
    private readonly harness: Harness,
    private readonly log: SessionLog,
  ) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    const { call, sessionId, state, resume, signal } = ctx;
    const start = ctx.events.findLast((e) => e.type === "turn_start");
    const turnId = start ? String((start.data as Data).turn_id) : (resume.continue_turn_id ?? null);
    const outcome = await (async () => {
      if (!turnId) return this.harness.turn(call, sessionId, state, newTurnId(), resume.task, signal);
      if (start && ended(ctx.events, turnId)) return { status: "completed" as const };
      const released = releasedWave(ctx.events);
      if (released)
        return this.harness.resume(
          call,
          sessionId,
          state,
          turnId,
          resume.task,
          released.approval,
          released.decision,
          signal,
          { applied: true },
        );
      return this.harness.proceed(call, sessionId, state, turnId, resume.task, signal);
    })();
    if (outcome.status !== "completed") return outcome;
    return { status: "completed", ...(await this.output(ctx)) };
  }

  private async output(ctx: RunContext): Promise<{ output: string; citations: number }> {
    const events = await this.log.all(ctx.call.workspaceId, ctx.sessionId);
    const response = events.findLast((e) => e.type === "response")?.data as SessionEventData<"response"> | undefined;
    return { output: response?.text ?? "", citations: response?.citations.length ?? 0 };
  }
}

/** The turn completed (a restart came between its end and the supervisor's). */
const ended = (events: readonly StreamEvent[], turnId: string) =>
  events.some(
    (e) => e.type === "turn_end" && (e.data as Data).turn_id === turnId && (e.data as Data).status === "completed",
  );

/** A decided tool approval whose paused calls have not run yet: the run starts with them. */
function releasedWave(events: readonly StreamEvent[]): { approval: Approval; decision: "approve" | "deny" } | null {
  const at = events.findLastIndex((e) => e.type === "approval_required");
  if (at < 0) return null;
  const approval = events[at]!.data as Approval;
  if (!approval.pending?.length) return null;
  const after = events.slice(at + 1);
  const applied = after.find(
    (e) => e.type === "approval_applied" && (e.data as Data).request_id === approval.request_id,
  );
  const ran = after.some(
    (e) => e.type === "tool_outcome" && (e.data as Data).tool_call_id === approval.pending![0]!.id,
  );
  return applied && !ran ? { approval, decision: (applied.data as { decision: "approve" | "deny" }).decision } : null;
}
