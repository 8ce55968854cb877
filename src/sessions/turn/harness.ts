// The harness: runs a session's turns (new, continued after a restart or stop, resumed after an approval) and knows which
// run in this process. A turn is a value (turn-state.ts) opened from the log (open-turn.ts), run by the step loop
// (step-loop.ts: prompt, provider step, tool waves) and ended by closing.ts; every event goes through its TurnWriter.
// Each step's conversation is rebuilt from the session's log, so a turn paused for approval (or cut off by a restart)
// goes on from exactly what was logged.
import { AppError } from "../../contract/errors.ts";
import type { SessionEventData } from "../../contract/events.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { sessionKey } from "../ids.ts";
import { SUBAGENT_PROFILE } from "../policy/policy.ts";
import { currentTurn } from "../log/projection.ts";
import type { SessionEventItem } from "../log/session-log.ts";
import { ToolSelector } from "../tools/tool-selection.ts";
import type { SessionTool } from "../tools/tool.ts";
import { failTurn, guarded } from "./closing.ts";
import { delegateTool } from "./delegate.ts";
import { yieldToRequests } from "./loop-share.ts";
import { openTurn } from "./open-turn.ts";
import { stepLoop } from "./step-loop.ts";
import { runWave } from "./tool-waves.ts";
import { isBackground, type HarnessDeps, type State, type Turn, type TurnOutcome } from "./turn-state.ts";

type Approval = SessionEventData<"approval_required">;

export class Harness {
  private readonly delegate: SessionTool;
  /** Every tool a call may name: the deps' and delegate. */
  private readonly tools: readonly SessionTool[];
  private readonly selector: ToolSelector;
  /** Turns running in this process (a sub-agent's too), by sessionKey; marked before the turn's first await. */
  private readonly live = new Map<string, Promise<void>>();

  constructor(private readonly deps: HarnessDeps) {
    this.delegate = delegateTool(deps, (...args) => this.turn(...args));
    this.tools = [...deps.tools, this.delegate];
    this.selector = new ToolSelector(this.tools);
  }

  /** Whether a turn of the session runs in this process now: a turn open in the log and not live here was cut off. */
  isLive(workspaceId: string, sessionId: string): boolean {
    return this.live.has(sessionKey(workspaceId, sessionId));
  }

  /** Resolves once no turn of the session runs here (at once when none does). */
  settled(workspaceId: string, sessionId: string): Promise<void> {
    return this.live.get(sessionKey(workspaceId, sessionId)) ?? Promise.resolve();
  }

  /** A new turn for `message`; resolves when it ends, pauses for approval or fails (each logged). */
  turn(
    call: CallContext,
    sessionId: string,
    state: State,
    turnId: string,
    message: string,
    signal?: AbortSignal,
  ): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      await yieldToRequests(); // the request that started the turn is answered first; setting the turn up is a slice of its own
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return guarded(this.deps, t, async () => {
        const offered = this.selector.select(message, (tool) => this.eligible(tool, state));
        t.offered = offered.map((o) => o.tool);
        const running: SessionEventItem[] = isBackground(t.state)
          ? []
          : [{ type: "session_state", data: { ...t.state, status: "running", updated_at: this.iso() } }];
        await t.writer.writeAll([
          { type: "turn_start", data: { turn_id: turnId, message } },
          ...running,
          {
            type: "tool_selected",
            data: { turn_id: turnId, offered: offered.map((o) => ({ name: o.tool.name, score: o.score })) },
          },
          { type: "turn_start_tools", data: { turn_id: turnId, tools: t.offered.map((o) => o.name) } },
        ]);
        return stepLoop(this.deps, this.tools, t);
      });
    });
  }

  /** Goes on with a turn cut off by a restart or stopped by its supervisor, from what its log holds (no call with an outcome runs again). */
  proceed(
    call: CallContext,
    sessionId: string,
    state: State,
    turnId: string,
    message: string,
    signal?: AbortSignal,
  ): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return guarded(this.deps, t, async () => {
        await this.goOn(t);
        return stepLoop(this.deps, this.tools, t);
      });
    });
  }

  /** Logs an operator's decision on `approval` (unless its caller `applied` it already) and goes on with the turn it paused. */
  resume(
    call: CallContext,
    sessionId: string,
    state: State,
    turnId: string,
    message: string,
    approval: Approval,
    decision: "approve" | "deny",
    signal?: AbortSignal,
    opts: { applied?: boolean } = {},
  ): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      if (!opts.applied)
        await this.deps.log.append(call.workspaceId, sessionId, "approval_applied", {
          request_id: approval.request_id,
          tool_name: approval.tool_name,
          decision,
        });
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return guarded(this.deps, t, async () => {
        await this.goOn(t);
        return (await runWave(this.deps, this.tools, t, approval.pending ?? [], decision))
          ? stepLoop(this.deps, this.tools, t)
          : { status: "awaiting_approval" };
      });
    });
  }

  /** Ends a turn as an error: turn_end, the idle state with last_error, then error (the stream's last event). */
  fail(
    call: CallContext,
    sessionId: string,
    state: State,
    turnId: string | null,
    code: string,
    message: string,
  ): Promise<void> {
    return failTurn(this.deps, call, sessionId, state, turnId, code, message);
  }

  /** Waits for the turns running now (a clean shutdown lets them log their end). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.live.values()]);
  }

  /**
   * A continued turn: running again (a chat session says so; a background one's supervisor did), the tools offered
   * again, and its budgets from where the pause left them (in-process usage before the pause is not logged).
   */
  private async goOn(t: Turn): Promise<void> {
    if (!isBackground(t.state))
      await t.writer.write("session_state", {
        ...t.state,
        status: "running",
        approval_request_id: null,
        updated_at: this.iso(),
      });
    t.offered = this.selector.select(t.message, (tool) => this.eligible(tool, t.state)).map((o) => o.tool);
    const turnEvents = currentTurn(t.writer.events);
    t.failures = turnEvents.filter((e) => e.type === "transport_diagnostic").length;
    t.repairs = Math.max(
      0,
      ...turnEvents
        .filter((e) => e.type === "tool_validation_error")
        .map((e) => (e.data as { attempt: number }).attempt),
    );
  }

  /** Runs a turn marked live from its first moment (synchronously, so a second request on the session sees it) to its end. */
  private track(workspaceId: string, sessionId: string, body: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const key = sessionKey(workspaceId, sessionId);
    if (this.live.has(key))
      return Promise.reject(new AppError("turn_in_progress", "a turn is running in this session"));
    const run = body()
      .catch((err: unknown): TurnOutcome => {
        const message = err instanceof Error ? err.message : String(err);
        this.deps.logError(`session ${sessionId}: ${message}`);
        return { status: "error", code: "internal_error", message, transient: true, unlogged: true };
      })
      .finally(() => this.live.delete(key));
    this.live.set(
      key,
      run.then(() => {}),
    );
    return run;
  }

  /** openTurn(), or, when even that fails (the store is unreachable), an error the waiting stream ends on. */
  private async open(
    call: CallContext,
    sessionId: string,
    state: State,
    turnId: string,
    message: string,
    signal: AbortSignal | undefined,
  ): Promise<Turn | TurnOutcome> {
    try {
      return await openTurn(this.deps, call, sessionId, state, turnId, message, signal);
    } catch (err) {
      this.deps.logError(
        `session ${sessionId}: the turn could not start (${err instanceof Error ? err.message : String(err)})`,
      );
      const logged =
        isBackground(state) ||
        (await this.fail(call, sessionId, state, null, "internal_error", "the turn could not start; try again").then(
          () => true,
          () => false,
        ));
      return {
        status: "error",
        code: "internal_error",
        message: "the turn could not start",
        transient: true,
        ...(logged ? {} : { unlogged: true as const }),
      };
    }
  }

  /** File tools need a write-capable session; a sub-agent does not delegate further. */
  private eligible(tool: SessionTool, state: State): boolean {
    if (tool.files) return state.permission_mode !== "read-only";
    return tool !== this.delegate || state.agent_profile !== SUBAGENT_PROFILE;
  }

  private iso(): string {
    return this.deps.clock.now().toISOString();
  }
}
