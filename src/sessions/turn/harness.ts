// The turn loop: ask the provider for a step, stream its text, validate and run the tool calls it asks for, repeat
// until it answers; then the response, its reflection, retrieval and cognition summaries, usage and the turn's end.
// Each step's conversation is rebuilt from the session's log (read once per turn, kept current as events are logged),
// so a turn paused for approval (or cut off by a restart) goes on from exactly what was logged.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import { AppError } from "../../contract/errors.ts";
import { toolSchema } from "../../contract/tool-schema.ts";
import type { SessionEventData } from "../../contract/events.ts";
import type { Clock } from "../../ports/clock.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { ProviderError, type ChatMessage, type ProviderEvent, type ProviderSet, type ToolCallRequest } from "../../ports/llm.ts";
import type { CallContext } from "../../services/context.ts";
import { COMPACT_AT, compact, tokensOf, WARN_AT } from "./context-budget.ts";
import { messagesOf } from "./history.ts";
import { RunStopped, TurnWriter } from "./turn-writer.ts";
import { newAgentId, newRequestId, newSessionId, newTurnId, parseResumeCursor, resumeCursor, sessionKey } from "../ids.ts";
import { settlesBeforeIo } from "../../threads/loop-yield.ts";
import { yieldToRequests } from "./loop-share.ts";
import { SUBAGENT_PROFILE, type PolicyFile, type PolicySource } from "../policy.ts";
import { sandboxFor, type Execution } from "../execution/rules.ts";
import type { Sandbox, SandboxMode } from "../execution/sandbox.ts";
import { commonFields } from "../session-state.ts";
import { currentTurn } from "../projection.ts";
import type { SessionEventItem, SessionLog } from "../session-log.ts";
import { runCall, type CallScope, type Decided, type ValidCall } from "../tool-runner.ts";
import type { TurnLeases } from "../turn-leases.ts";
import { ToolSelector } from "../tool-selection.ts";
import type { SessionTool } from "../tools/tool.ts";
import { reflect, turnCitations, turnPack, turnText } from "./turn-evidence.ts";

type State = SessionEventData<"session_state">;
type Approval = SessionEventData<"approval_required">;

/** How a turn (or its continuation) ended: its caller decides what the session does next (chat: idle; background: the supervisor). */
export type TurnOutcome =
  | { status: "completed" }
  | { status: "awaiting_approval" }
  | { status: "stopped" }
  | { status: "error"; code: string; message: string; transient: boolean; unlogged?: true };

/** The turn ended without its end in the log (the store went away): its stream cannot wait for that end. */
export const endUnlogged = (o: TurnOutcome): o is Extract<TurnOutcome, { status: "error" }> => o.status === "error" && o.unlogged === true;

const stopPoint = (t: { signal: AbortSignal | undefined }) => {
  if (t.signal?.aborted) throw new RunStopped();
};

/** A background session (it has an engine) reports steps and checkpoints; its supervisor logs its status (running and its end). */
export const isBackground = (state: State) => state.engine !== undefined;

/** Provider steps per turn before it ends as an error (a model that never stops calling tools). */
export const MAX_STEPS = 8;
/** Rounds of invalid tool arguments sent back to the model per turn before the turn gives up. */
export const MAX_REPAIRS = 2;
const BRANCH_DEPTH = 32;

export interface HarnessDeps {
  log: SessionLog;
  providers: ProviderSet;
  /** Every tool a session may be offered (memory tools, file tools); delegate is the harness's own. */
  tools: readonly SessionTool[];
  clock: Clock;
  policies: PolicySource;
  /** The operator's rules and the host's isolation, which policy hooks run under. */
  execution: Execution;
  /** Task workspaces live under <taskRoot>/<workspace>/<session>. */
  taskRoot: string;
  /** The chat turns' leases across processes (a sub-agent's turn takes its session's too). */
  leases: TurnLeases;
  /**
   * At most this many events of a turn that are ready together share one write. Where a write is a round trip
   * (PostgreSQL) the loop is free while it waits, and fewer of them make the turn faster; where it is a local commit
   * (SQLite) it runs on the loop, and one event per write keeps each slice of a turn short for the requests between.
   */
  eventsPerWrite: number;
  logError(msg: string): void;
}

/** Counters that mean a guardrail acted (flagged injection, dropped invalid or duplicate evidence, withheld an answer). */
const GUARDRAILS = new Set(["injection_flagged", "items_dropped_invalid", "answers_blocked_uncited", "answers_withheld", "chunks_dropped_duplicate"]);

interface Turn {
  call: CallContext;
  sessionId: string;
  turnId: string;
  message: string;
  state: State;
  /** Every event of the turn is logged through it; it keeps the turn's copy of the log and its conversation current. */
  writer: TurnWriter;
  /** Why the turn cannot run (an unreadable policy file), raised inside the turn's guard. */
  blocked: AppError | null;
  scope: CallScope;
  offered: SessionTool[];
  usage: { input: number; output: number };
  repairs: number;
  /** Provider failures in this turn (transport_diagnostic's failure_count). */
  failures: number;
  /** The cognitive counters the turn's own calls committed, `layer.counter` -> n (a sub-agent's count in its parent's too). */
  counters: Map<string, number>;
  /** Set by a background run's supervisor to stop the turn at its next stop point. */
  signal: AbortSignal | undefined;
}

export class Harness {
  private readonly selector: ToolSelector;
  private readonly delegate: SessionTool;
  /** Turns running in this process (a sub-agent's too), by sessionKey; marked before the turn's first await. */
  private readonly live = new Map<string, Promise<void>>();

  constructor(private readonly deps: HarnessDeps) {
    this.delegate = this.delegateTool();
    this.selector = new ToolSelector([...deps.tools, this.delegate]);
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
  turn(call: CallContext, sessionId: string, state: State, turnId: string, message: string, signal?: AbortSignal): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      await yieldToRequests(); // the request that started the turn is answered first; setting the turn up is a slice of its own
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return this.guard(t, async () => {
        const offered = this.selector.select(message, (tool) => this.eligible(tool, state));
        t.offered = offered.map((o) => o.tool);
        const running: SessionEventItem[] = isBackground(t.state) ? [] : [{ type: "session_state", data: { ...t.state, status: "running", updated_at: this.iso() } }];
        await t.writer.writeAll([
          { type: "turn_start", data: { turn_id: turnId, message } },
          ...running,
          { type: "tool_selected", data: { turn_id: turnId, offered: offered.map((o) => ({ name: o.tool.name, score: o.score })) } },
          { type: "turn_start_tools", data: { turn_id: turnId, tools: t.offered.map((o) => o.name) } },
        ]);
        return this.loop(t);
      });
    });
  }

  /** Goes on with a turn cut off by a restart or stopped by its supervisor, from what its log holds (no call with an outcome runs again). */
  proceed(call: CallContext, sessionId: string, state: State, turnId: string, message: string, signal?: AbortSignal): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return this.guard(t, async () => {
        await this.goOn(t);
        return this.loop(t);
      });
    });
  }

  /** Logs an operator's decision on `approval` (unless its caller `applied` it already) and goes on with the turn it paused. */
  resume(call: CallContext, sessionId: string, state: State, turnId: string, message: string, approval: Approval, decision: "approve" | "deny", signal?: AbortSignal, opts: { applied?: boolean } = {}): Promise<TurnOutcome> {
    return this.track(call.workspaceId, sessionId, async () => {
      if (!opts.applied) await this.deps.log.append(call.workspaceId, sessionId, "approval_applied", { request_id: approval.request_id, tool_name: approval.tool_name, decision });
      const t = await this.open(call, sessionId, state, turnId, message, signal);
      if ("status" in t) return t;
      return this.guard(t, async () => {
        await this.goOn(t);
        return (await this.runWave(t, approval.pending ?? [], decision)) ? this.loop(t) : { status: "awaiting_approval" };
      });
    });
  }

  /**
   * A continued turn: running again (a chat session says so; a background one's supervisor did), the tools offered
   * again, and its budgets from where the pause left them (in-process usage before the pause is not logged).
   */
  private async goOn(t: Turn): Promise<void> {
    if (!isBackground(t.state)) await t.writer.write("session_state", { ...t.state, status: "running", approval_request_id: null, updated_at: this.iso() });
    t.offered = this.selector.select(t.message, (tool) => this.eligible(tool, t.state)).map((o) => o.tool);
    const turnEvents = currentTurn(t.writer.events);
    t.failures = turnEvents.filter((e) => e.type === "transport_diagnostic").length;
    t.repairs = Math.max(0, ...turnEvents.filter((e) => e.type === "tool_validation_error").map((e) => (e.data as { attempt: number }).attempt));
  }

  /** Waits for the turns running now (a clean shutdown lets them log their end). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.live.values()]);
  }

  /** Runs a turn marked live from its first moment (synchronously, so a second request on the session sees it) to its end. */
  private track(workspaceId: string, sessionId: string, body: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const key = sessionKey(workspaceId, sessionId);
    if (this.live.has(key)) return Promise.reject(new AppError("turn_in_progress", "a turn is running in this session"));
    const run = body()
      .catch((err: unknown): TurnOutcome => {
        const message = err instanceof Error ? err.message : String(err);
        this.deps.logError(`session ${sessionId}: ${message}`);
        return { status: "error", code: "internal_error", message, transient: true, unlogged: true };
      })
      .finally(() => this.live.delete(key));
    this.live.set(key, run.then(() => {}));
    return run;
  }

  private async begin(outer: CallContext, sessionId: string, prior: State, turnId: string, message: string, signal: AbortSignal | undefined): Promise<Turn> {
    const counters = new Map<string, number>();
    const call: CallContext = {
      ...outer,
      onCounter: (layer, counter, n) => {
        const key = `${layer}.${counter}`;
        counters.set(key, (counters.get(key) ?? 0) + n);
        outer.onCounter?.(layer, counter, n);
      },
    };
    const state: State = { ...prior, last_error: null }; // a new turn (or its continuation) starts clean
    const events = await this.deps.log.all(call.workspaceId, sessionId);
    const prefix = await this.prefix(call.workspaceId, events);
    const writer = new TurnWriter(this.deps.log, call.workspaceId, sessionId, events, prefix, { eventsPerWrite: this.deps.eventsPerWrite, lost: isBackground(state) ? undefined : signal });
    let policy: PolicyFile | null = null;
    let blocked: AppError | null = null;
    // A policy that cannot be read stops the turn: running without its deny rules would be worse than not running.
    if (state.policy_path) policy = await this.deps.policies(state.policy_path).catch((err: unknown) => ((blocked = err instanceof AppError ? err : new AppError("invalid_request", String(err))), null));
    let sandbox: Sandbox = { requested: state.sandbox_mode as SandboxMode, resolved: "none", isolation: "none", reason: "the turn is blocked" };
    try {
      sandbox = sandboxFor(this.deps.execution, state.sandbox_mode as SandboxMode, { engine: "native" }, (policy?.hooks.length ?? 0) > 0);
    } catch (err) {
      // Hooks that cannot run isolated stop the turn rather than run weaker (a host that lost bubblewrap since the start).
      blocked ??= err instanceof AppError ? err : new AppError("internal_error", String(err));
    }
    const scope: CallScope = {
      call,
      sessionId,
      taskDir: join(this.deps.taskRoot, call.workspaceId, sessionId),
      state,
      writer,
      policy,
      sandbox,
      isolation: this.deps.execution.isolation,
      timeoutMs: state.tool_timeout_ms ?? 30_000,
      now: () => performance.now(),
      notified: { hooks: false, files: false },
    };
    return { call, sessionId, turnId, message, state, writer, blocked, scope, offered: [], usage: { input: 0, output: 0 }, repairs: 0, failures: 0, counters, signal };
  }

  /**
   * Any failure ends the turn as an error: a chat session logs it and takes the next message; a background one ends the
   * turn and leaves retry or failure to its supervisor (a provider's or the runtime's failure is transient, a refusal not).
   */
  private async guard(t: Turn, body: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    const endTurn = (status: "error" | "cancelled") => this.deps.log.append(t.call.workspaceId, t.sessionId, "turn_end", { turn_id: t.turnId, status });
    try {
      if (t.blocked) throw t.blocked;
      return await body();
    } catch (err) {
      // A chat turn is stopped only when another process took its lease over: that one ends it in the log, not this.
      if (err instanceof RunStopped) return isBackground(t.state) ? endTurn("cancelled").then((): TurnOutcome => ({ status: "stopped" })) : { status: "stopped" };
      if (!(err instanceof AppError) && !(err instanceof ProviderError)) this.deps.logError(`session ${t.sessionId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const e = err instanceof AppError ? err : new AppError("internal_error", err instanceof ProviderError ? `every provider failed; the last: ${err.message}` : "the turn failed");
      const code = e.code === "internal_error" && err instanceof ProviderError ? "provider_failed" : e.code;
      const ended = isBackground(t.state) ? endTurn("error") : this.fail(t.call, t.sessionId, t.state, t.turnId, code, e.message);
      const logged = await ended.then(
        () => true,
        (err2: unknown) => (this.deps.logError(`session ${t.sessionId}: end not logged (${String(err2)})`), false),
      );
      // A store that went away is transient too: the run goes on (or the message is sent again) once it is back.
      const transient = !(err instanceof AppError) || e.code === "store_unavailable";
      return { status: "error", code, message: e.message, transient, ...(logged ? {} : { unlogged: true as const }) };
    }
  }

  /** begin(), or, when even that fails (the store is unreachable), an error the waiting stream ends on. */
  private async open(call: CallContext, sessionId: string, state: State, turnId: string, message: string, signal: AbortSignal | undefined): Promise<Turn | TurnOutcome> {
    try {
      return await this.begin(call, sessionId, state, turnId, message, signal);
    } catch (err) {
      this.deps.logError(`session ${sessionId}: the turn could not start (${err instanceof Error ? err.message : String(err)})`);
      const logged = isBackground(state) || (await this.fail(call, sessionId, state, null, "internal_error", "the turn could not start; try again").then(() => true, () => false));
      return { status: "error", code: "internal_error", message: "the turn could not start", transient: true, ...(logged ? {} : { unlogged: true as const }) };
    }
  }

  /** Ends a turn as an error: turn_end, the idle state with last_error, then error (the stream's last event). */
  async fail(call: CallContext, sessionId: string, state: State, turnId: string | null, code: string, message: string): Promise<void> {
    const emit = this.deps.log.emitter(call.workspaceId, sessionId);
    if (turnId) await emit("turn_end", { turn_id: turnId, status: "error" });
    await emit("session_state", { ...state, status: "idle", approval_request_id: null, last_error: message, updated_at: this.iso() });
    await emit("error", { code, message, turn_id: turnId });
  }

  private async loop(t: Turn): Promise<TurnOutcome> {
    for (let step = 0; step < MAX_STEPS; step++) {
      stopPoint(t);
      const messages = await this.prompt(t);
      const before = { ...t.usage };
      const { calls } = await this.step(t, messages);
      if (isBackground(t.state)) await this.progress(t, messages, before, calls);
      if (calls.length === 0) return this.finish(t);
      const valid = await this.validate(t, calls);
      if (!(await this.runWave(t, valid, undefined))) return { status: "awaiting_approval" };
      if (isBackground(t.state) && valid.length) await this.checkpoint(t, valid);
    }
    throw new AppError("internal_error", `the model kept calling tools for ${MAX_STEPS} steps without answering`);
  }

  /** The system prompt and the conversation from the log, compacted first when it is over the budget. */
  private async prompt(t: Turn): Promise<ChatMessage[]> {
    const budget = t.state.context_budget_tokens ?? this.deps.providers.contextTokens(t.state.provider);
    let messages = [this.system(t), ...t.writer.messages()];
    let used = tokensOf(messages);
    if (used >= COMPACT_AT * budget) {
      const c = compact(messages.slice(1));
      if (c) {
        await t.writer.write("context_compacted", { ...c, resume_cursor: resumeCursor({ sessionId: t.sessionId, seq: t.writer.events.at(-1)!.seq }) });
        messages = [this.system(t), ...t.writer.messages()];
        used = tokensOf(messages);
      }
    }
    // Each threshold warns once until a compaction brings the prompt back under it.
    const sinceCompaction = t.writer.events.slice(t.writer.events.findLastIndex((e) => e.type === "context_compacted") + 1);
    const warned = Math.max(0, ...sinceCompaction.filter((e) => e.type === "context_warning").map((e) => (e.data as { threshold: number }).threshold));
    const reached = WARN_AT.filter((w) => used >= w * budget).at(-1);
    if (reached !== undefined && reached > warned) await t.writer.write("context_warning", { used_tokens: used, budget_tokens: budget, threshold: reached });
    return messages;
  }

  private system(t: Turn): ChatMessage {
    return {
      role: "system",
      content:
        `You are Smriti's ${t.state.agent_profile} agent. Answer from this workspace's memory only, through the tools offered; ` +
        "cite what you use and say plainly when memory holds no evidence.",
    };
  }

  /** A branch's conversation before its own events: its source's, up to the branch point (and so on up the branches). */
  private async prefix(workspaceId: string, events: readonly StreamEvent[], depth = 0): Promise<ChatMessage[]> {
    const seed = events.find((e) => e.type === "session_checkpoint" && (e.data as { checkpoint_type: string }).checkpoint_type === "resume_seed");
    const cursor = (seed?.data as { resume_cursor: string | null } | undefined)?.resume_cursor;
    if (!cursor || depth >= BRANCH_DEPTH) return [];
    const point = parseResumeCursor(cursor);
    const source = await this.deps.log.all(workspaceId, point.sessionId, point.seq);
    return messagesOf(source, await this.prefix(workspaceId, source, depth + 1));
  }

  /**
   * One provider step down the fallback chain: text streams as tokens; a failed provider hands the step to the next.
   * Text deltas that arrive together (one network read, or a provider that yields them at once) are logged together.
   */
  private async step(t: Turn, messages: ChatMessage[]): Promise<{ calls: ToolCallRequest[] }> {
    const chain = this.deps.providers.chain(t.state.provider, t.state.model || null);
    const specs = t.offered.map((o) => ({ name: o.name, description: o.description, parameters: o.parameters }));
    let texts: string[] = [];
    const flush = async () => {
      if (!texts.length) return;
      const items = texts.map((text): SessionEventItem => ({ type: "token", data: { turn_id: t.turnId, text } }));
      texts = [];
      await t.writer.writeAll(items);
    };
    for (let i = 0; ; i++) {
      const provider = chain[i]!;
      let thinking = "";
      const calls: ToolCallRequest[] = [];
      const events = provider.step({ messages, tools: specs })[Symbol.asyncIterator]();
      let pending: Promise<IteratorResult<ProviderEvent>> | null = null;
      try {
        for (;;) {
          pending = events.next();
          // The provider waits for more (the network): what came so far streams now, not with the next delta.
          if (texts.length && !(await settlesBeforeIo(pending))) await flush();
          const { done, value: ev } = await pending;
          pending = null;
          if (done) break;
          if (t.signal?.aborted) await flush(); // what came before the stop is logged (unless another process took the turn)
          stopPoint(t);
          if (ev.type === "text") texts.push(ev.text);
          else if (ev.type === "thinking") thinking += ev.text;
          else if (ev.type === "tool_call") calls.push(ev.call);
          else if (ev.type === "usage") [t.usage.input, t.usage.output] = [t.usage.input + ev.inputTokens, t.usage.output + ev.outputTokens];
        }
        await flush();
        if (thinking && t.state.think_level !== "off") await t.writer.write("thinking", { turn_id: t.turnId, text: thinking });
        return { calls };
      } catch (err) {
        // Closes the provider's stream (as a for-await would), after a step it is still reading, if any.
        pending?.catch(() => {});
        void events.return?.(undefined).catch(() => {});
        if (!(err instanceof ProviderError)) throw err;
        await flush(); // what the failed provider said before it failed stays in the log
        const next = chain[i + 1];
        await t.writer.write("transport_diagnostic", {
          status: next ? "fallback" : "failed",
          kind: err.kind,
          provider_requested: chain[0]!.id,
          provider_actual: (next ?? provider).id,
          reason: `${provider.id}: ${err.message}`,
          failure_count: ++t.failures,
        });
        if (!next) throw err;
      }
    }
  }

  /** Checks each call's name and arguments; a bad one goes back to the model as a validation error (a bounded repair loop). */
  private async validate(t: Turn, calls: readonly ToolCallRequest[]): Promise<ToolCallRequest[]> {
    const valid: ToolCallRequest[] = [];
    let invalid = 0;
    for (const c of calls) {
      const id = `call_${randomBytes(8).toString("hex")}`;
      const tool = t.offered.find((o) => o.name === c.name);
      let issues: unknown[] = [];
      let json: unknown;
      try {
        json = JSON.parse(c.arguments);
      } catch {
        issues = [{ message: "arguments are not JSON" }];
      }
      if (!tool) issues = [{ message: `no tool '${c.name}' is offered in this turn` }];
      else if (!issues.length) {
        const parsed = tool.input.safeParse(json);
        if (!parsed.success) issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      }
      if (!issues.length) valid.push({ ...c, id });
      else {
        invalid++;
        await t.writer.write("tool_validation_error", { tool_call_id: id, tool_name: c.name, attempt: t.repairs + 1, issues, arguments: c.arguments });
      }
    }
    if (invalid && ++t.repairs > MAX_REPAIRS) throw new AppError("invalid_request", `the model's tool arguments were still invalid after ${MAX_REPAIRS} repairs`);
    return valid;
  }

  /** Runs a wave of calls in order; false when one waits for approval (the turn is paused and logged so). */
  private async runWave(t: Turn, calls: readonly ToolCallRequest[], first: Decided): Promise<boolean> {
    if (calls.length > 1) await t.writer.write("tool_batch", { turn_id: t.turnId, tool_call_ids: calls.map((c) => c.id) });
    for (const [i, c] of calls.entries()) {
      stopPoint(t);
      const tool = t.offered.find((o) => o.name === c.name) ?? [...this.deps.tools, this.delegate].find((o) => o.name === c.name);
      const input = tool?.input.safeParse(JSON.parse(c.arguments));
      if (!tool || !input?.success) throw new AppError("internal_error", `tool call ${c.id} can no longer be run`);
      const call: ValidCall = { id: c.id, name: c.name, input: input.data as Record<string, unknown>, raw: c.arguments };
      const status = await runCall(t.scope, tool, call, i === 0 ? first : undefined);
      if (status === "ask") {
        await this.pause(t, tool, call, calls.slice(i));
        return false;
      }
    }
    return true;
  }

  private async pause(t: Turn, tool: SessionTool, call: ValidCall, pending: readonly ToolCallRequest[]): Promise<void> {
    const requestId = newRequestId();
    const reason = tool.writes ? `${tool.name} changes what the workspace holds` : `${tool.name} needs an operator's approval in this session`;
    await t.writer.writeAll([
      { type: "approval_required", data: { request_id: requestId, tool_name: tool.name, reason, turn_id: t.turnId, tool_call_id: call.id, arguments: call.input, pending: pending.map((p) => ({ id: p.id, name: p.name, arguments: p.arguments })) } },
      { type: "session_state", data: { ...t.state, status: "awaiting_approval", approval_request_id: requestId, updated_at: this.iso() } },
      { type: "turn_end", data: { turn_id: t.turnId, status: "awaiting_approval" } },
    ]);
  }

  /** A background run's step: what it did and cost (budgets read it before the turn's usage). */
  private async progress(t: Turn, messages: ChatMessage[], before: { input: number; output: number }, calls: readonly ToolCallRequest[]): Promise<void> {
    const step = currentTurn(t.writer.events).filter((e) => e.type === "step_progress").length + 1;
    const [input, output] = [t.usage.input - before.input, t.usage.output - before.output];
    await t.writer.write("step_progress", {
      step,
      total: null,
      label: calls.length ? `call ${calls.map((c) => c.name).join(", ")}` : "answer",
      status: "done",
      turn_id: t.turnId,
      input_tokens: input,
      output_tokens: output,
      cost_usd: this.deps.providers.costUsd(t.state.provider, input, output),
      context_tokens: tokensOf(messages),
      budget_tokens: t.state.context_budget_tokens ?? this.deps.providers.contextTokens(t.state.provider),
    });
  }

  /** After a wave of calls: a checkpoint a recovery (or a branch) goes on from. */
  private async checkpoint(t: Turn, calls: readonly ToolCallRequest[]): Promise<void> {
    const sequence = t.writer.events.filter((e) => e.type === "session_checkpoint").length + 1;
    const outcomes = new Map(t.writer.events.filter((e) => e.type === "tool_outcome").map((e) => [(e.data as { tool_call_id: string }).tool_call_id, (e.data as { status: string }).status]));
    const summary = calls.map((c) => `${c.name} ${outcomes.get(c.id) ?? "not run"}`).join(", ");
    await t.writer.write("session_checkpoint", { session_id: t.sessionId, sequence, checkpoint_type: "step", status: "ok", summary_text: summary, resume_cursor: resumeCursor({ sessionId: t.sessionId, seq: t.writer.events.at(-1)!.seq }) });
  }

  /** The turn's closing events, logged together once all of them are known. */
  private async finish(t: Turn): Promise<TurnOutcome> {
    const turnEvents = currentTurn(t.writer.events);
    const text = turnText(turnEvents);
    const citations = turnCitations(turnEvents);
    const changed = [...t.counters].filter(([, n]) => n > 0).map(([key]) => key);
    // The extractive agent costs nothing; a model's price is the configured one, or unknown (null, not a guess).
    const cost = this.deps.providers.costUsd(t.state.provider, t.usage.input, t.usage.output);
    const turn_id = t.turnId;
    const closing: SessionEventItem[] = [
      { type: "response", data: { turn_id, text, citations } },
      { type: "reflection", data: { turn_id, ...reflect(text, citations) } },
      { type: "retrieval", data: { turn_id, citations, pack: turnPack(turnEvents) } },
      { type: "cognition", data: { turn_id, layers: [...new Set(changed.map((k) => k.split(".")[0]!))].sort(), guardrails: changed.filter((k) => GUARDRAILS.has(k.split(".")[1]!)).sort() } },
      { type: "usage", data: { turn_id, input_tokens: t.usage.input, output_tokens: t.usage.output, cost_usd: cost } },
      { type: "turn_end", data: { turn_id, status: "completed" } },
    ];
    if (!isBackground(t.state)) closing.push({ type: "session_state", data: { ...t.state, status: "idle", approval_request_id: null, updated_at: this.iso() } }, { type: "completed", data: { session_id: t.sessionId } });
    await t.writer.writeAll(closing);
    return { status: "completed" };
  }

  /** File tools need a write-capable session; a sub-agent does not delegate further. */
  private eligible(tool: SessionTool, state: State): boolean {
    if (tool.files) return state.permission_mode !== "read-only";
    return tool !== this.delegate || state.agent_profile !== SUBAGENT_PROFILE;
  }

  private iso(): string {
    return this.deps.clock.now().toISOString();
  }

  /** delegate: a read-only sub-agent session answers a sub-question; its snapshot is kept on the parent (subagent_event). */
  private delegateTool(): SessionTool {
    const input = z.strictObject({ question: z.string().trim().min(1).max(2_000).describe("One self-contained sub-question.") });
    return {
      name: "delegate",
      description: "Hand one sub-question to a sub-agent that answers it from memory with citations; use it to split a multi-part question.",
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
        const state: State = { ...commonFields(parent), session_id: sessionId, status: "idle", agent_profile: SUBAGENT_PROFILE, permission_mode: "read-only", approval_mode: "never", parent_session_id: ctx.sessionId };
        const log = this.deps.log;
        await log.append(ctx.call.workspaceId, sessionId, "session_state", state);
        // Held like any chat turn's: another process reading the sub-session sees it running, not cut off.
        const hold = await this.deps.leases.take({ workspaceId: ctx.call.workspaceId, sessionId });
        try {
          await this.turn(ctx.call, sessionId, state, newTurnId(), question, hold?.lost);
        } finally {
          if (hold) await this.deps.leases.release(hold);
        }
        // Timed out meanwhile: the parent's call has ended, so nothing more is said in its log (the sub-agent's own log keeps all).
        if (signal.aborted) return { result: { agent_id: agentId, session_id: sessionId } };
        const events = await log.all(ctx.call.workspaceId, sessionId);
        const response = events.findLast((e) => e.type === "response")?.data as SessionEventData<"response"> | undefined;
        const failed = events.at(-1)?.type === "error";
        await scope.writer.write("subagent_event", { ...snapshot, status: failed ? "failed" : "completed", answer: response?.text ?? null, citations: response?.citations.length ?? 0 });
        if (failed || !response) throw new AppError("internal_error", `the sub-agent failed: ${String((events.at(-1)?.data as { message?: string }).message ?? "no answer")}`);
        return { result: { agent_id: agentId, session_id: sessionId, question, answer: response.text, citations: response.citations } };
      },
    };
  }
}

