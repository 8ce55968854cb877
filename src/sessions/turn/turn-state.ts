// A turn as a value: who asked, the session's state, what is offered, its counters and budgets, and the one writer its
// events go through. The steps (open-turn, step-loop, tool-waves, closing) take it and change only these fields.
import type { AppError } from "../../contract/errors.ts";
import type { SessionEventData } from "../../contract/events.ts";
import type { Clock } from "../../ports/clock.ts";
import type { ProviderSet } from "../../ports/llm.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { Execution } from "../policy/rules.ts";
import type { PolicySource } from "../policy/policy.ts";
import type { SessionLog } from "../log/session-log.ts";
import type { CallScope } from "../tools/tool-runner.ts";
import type { SessionTool } from "../tools/tool.ts";
import type { TurnLeases } from "../turn-leases.ts";
import { RunStopped, type TurnWriter } from "./turn-writer.ts";

export type State = SessionEventData<"session_state">;

/** How a turn (or its continuation) ended: its caller decides what the session does next (chat: idle; background: the supervisor). */
export type TurnOutcome =
  | { status: "completed" }
  | { status: "awaiting_approval" }
  | { status: "stopped" }
  | { status: "error"; code: string; message: string; transient: boolean; unlogged?: true };

/** The turn ended without its end in the log (the store went away): its stream cannot wait for that end. */
export const endUnlogged = (o: TurnOutcome): o is Extract<TurnOutcome, { status: "error" }> =>
  o.status === "error" && o.unlogged === true;

/** A background session (it has an engine) reports steps and checkpoints; its supervisor logs its status (running and its end). */
export const isBackground = (state: State) => state.engine !== undefined;

/** Provider steps per turn before it ends as an error (a model that never stops calling tools). */
export const MAX_STEPS = 8;
/** Rounds of invalid tool arguments sent back to the model per turn before the turn gives up. */
export const MAX_REPAIRS = 2;

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

export interface Turn {
  call: CallContext;
  sessionId: string;
  turnId: string;
  message: string;
  state: State;
  /** Every event of the turn is logged through it; it keeps the turn's copy of the log and its conversation current. */
  writer: TurnWriter;
  /** Why the turn cannot run (an unreadable policy file), raised inside the turn's guard. */
  blocked: AppError | null;
  /** What a tool call of this turn runs with (policy, sandbox, timeout; the writer again). */
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

/** A stop point: before a model step, between its text deltas, and before a tool call starts. */
export function stopPoint(t: Pick<Turn, "signal">): void {
  if (t.signal?.aborted) throw new RunStopped();
}
