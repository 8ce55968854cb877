// What a background run's end means for its session: completed, recovering (a transient failure with retries left),
// failed, expired, paused, cancelled or awaiting an approval; and what a crashed run becomes when another process
// recovers it. Each is logged only while the session is where the run (or the crash) left it, after the events it was
// decided on: a holder that was only cut off from the store and the process that took its run over never both end it.
import type { Clock } from "../../ports/clock.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import type { SessionKey } from "../../ports/session-index.ts";
import { newRequestId } from "../ids.ts";
import { clip, heldByRun } from "../log/projection.ts";
import type { SessionLog } from "../log/session-log.ts";
import { checkpointItem, type Items } from "./checkpoints.ts";
import type { CheckpointExtras, RunOutcome, State } from "./engine.ts";

/** What a stopped run becomes. */
export type StopReason =
  | { kind: "pause" }
  | { kind: "cancel" }
  | { kind: "shutdown" }
  | { kind: "health"; action: "approval" | "pause"; budgets: string[] }
  // Another supervisor took the run over (this one looked dead): it writes nothing more, the new holder goes on.
  | { kind: "lease_lost" }
  // Another process logged the session's end or pause while it ran here: that stands, this run writes nothing more.
  | { kind: "ended_elsewhere" };

/** Retries wait 250 ms, 500 ms, ... up to 30 s. */
const backoff = (attempt: number) => Math.min(30_000, 250 * 2 ** Math.max(0, attempt - 1));

export interface RunEndsDeps {
  log: SessionLog;
  clock: Clock;
  /** Runs the session again after a wait (a retry's backoff). */
  requeue(job: SessionKey, afterMs: number): void;
}

export class RunEnds {
  constructor(private readonly deps: RunEndsDeps) {}

  /** What the run's end means for the session. */
  async settle(
    job: SessionKey,
    running: State,
    outcome: RunOutcome,
    reason: StopReason | null,
    serving: boolean,
  ): Promise<void> {
    const at = this.iso();
    if (outcome.status === "completed") {
      const artifact = { type: "final_output", text: outcome.output, citations: outcome.citations };
      const ended = { ...running, status: "completed", approval_request_id: null, updated_at: at, ended_at: at };
      await this.conclude(job, heldByRun(running), (events) => [
        checkpointItem(job, events, "final_output", "completed", clip(outcome.output || "(no output)", 200), {
          artifact,
        }),
        { type: "session_state", data: ended },
        { type: "completed", data: { session_id: job.sessionId } },
      ]);
    } else if (outcome.status === "stopped") await this.stopped(job, running, reason ?? { kind: "shutdown" });
    // An operator paused or cancelled it as it began to wait: that decision stands over the wait.
    else if (outcome.status === "awaiting_approval" && (reason?.kind === "pause" || reason?.kind === "cancel"))
      await this.stopped(job, running, reason);
    else if (outcome.status === "error") {
      if (outcome.transient && !serving) return this.handBack(job, running, outcome.message);
      if (outcome.transient && running.attempt_count! <= running.max_retries!)
        return void (await this.recovering(job, running, heldByRun(running), outcome.message));
      await this.fail(
        job,
        running,
        heldByRun(running),
        outcome.code,
        outcome.transient
          ? `${outcome.message} (no retries left after ${running.attempt_count} runs)`
          : outcome.message,
      );
    }
    // awaiting_approval: the engine logged the request and the waiting state.
  }

  /** Logs `items` (a run's wait for an approval) while the session is still the run's; false when it no longer is. */
  whileHeld(job: SessionKey, running: State, items: Items): Promise<boolean> {
    return this.conclude(job, heldByRun(running), () => items);
  }

  private async stopped(job: SessionKey, running: State, reason: StopReason): Promise<void> {
    if (reason.kind === "lease_lost" || reason.kind === "ended_elsewhere") return;
    if (reason.kind === "shutdown") return this.handBack(job, running, "the service shut down during the run");
    const at = this.iso();
    const state = (status: string) => ({
      type: "session_state" as const,
      data: {
        ...running,
        status,
        approval_request_id: null,
        updated_at: at,
        ...(status === "cancelled" ? { ended_at: at } : {}),
      },
    });
    const checkpointed =
      (type: string, status: string, summary: string, opts: CheckpointExtras = {}) =>
      (events: readonly StreamEvent[]) => [checkpointItem(job, events, type, status, summary, opts), state(status)];
    const ours = heldByRun(running);
    if (reason.kind === "cancel")
      return void (await this.conclude(job, ours, checkpointed("cancelled", "cancelled", "cancelled by an operator")));
    if (reason.kind === "pause")
      return void (await this.conclude(job, ours, checkpointed("paused", "paused", "paused by an operator")));
    const why = `health budget crossed: ${reason.budgets.join(", ")}`;
    if (reason.action === "pause")
      return void (await this.conclude(
        job,
        ours,
        checkpointed("health_pause", "paused", why, { budgets: reason.budgets }),
      ));
    const requestId = newRequestId();
    await this.conclude(job, ours, () => [
      {
        type: "approval_required",
        data: {
          request_id: requestId,
          tool_name: "health_policy",
          reason: `${why}; approve to go on past it`,
          budgets: reason.budgets,
        },
      },
      {
        type: "session_state",
        data: { ...running, status: "awaiting_approval", approval_request_id: requestId, updated_at: at },
      },
    ]);
  }

  /**
   * Logs what a run's end (or a crashed run's recovery) leaves the session in, unless the session moved on without this
   * process: another took the run over while this one could not reach the store and ended it, or an operator did. The
   * write lands only after the last event read; a race reads again and decides again. False when nothing was written.
   */
  private async conclude(
    job: SessionKey,
    stillOurs: (latest: State) => boolean,
    items: (events: StreamEvent[]) => Items,
  ): Promise<boolean> {
    return (await this.deps.log.appendWhile(job.workspaceId, job.sessionId, stillOurs, items)) !== null;
  }

  /** A transient failure with retries left: recovering now, running again after a backoff. */
  private async recovering(
    job: SessionKey,
    state: State,
    stillOurs: (latest: State) => boolean,
    why: string,
  ): Promise<boolean> {
    const recovering = { ...state, status: "recovering", last_error: why, updated_at: this.iso() };
    const summary = `attempt ${state.attempt_count} failed (${clip(why, 120)}); retrying`;
    const logged = await this.conclude(job, stillOurs, (events) => [
      checkpointItem(job, events, "recovery", "recovering", summary),
      { type: "session_state", data: recovering },
    ]);
    if (logged) this.deps.requeue(job, backoff(state.attempt_count ?? 1));
    return logged;
  }

  /** A shutdown hands the run back: recovering, for the next start to go on with (a restart is not the run's fault). */
  private async handBack(job: SessionKey, running: State, why: string): Promise<void> {
    const recovering = { ...running, status: "recovering", last_error: why, updated_at: this.iso() };
    await this.conclude(job, heldByRun(running), () => [{ type: "session_state", data: recovering }]);
  }

  /** failed with last_error, then `error`, in one write. */
  private async fail(
    job: SessionKey,
    state: State,
    stillOurs: (latest: State) => boolean,
    code: string,
    message: string,
  ): Promise<boolean> {
    return this.conclude(job, stillOurs, () => this.failure(state, code, message, this.iso()));
  }

  private failure(state: State, code: string, message: string, at: string): Items {
    return [
      {
        type: "session_state",
        data: {
          ...state,
          status: "failed",
          approval_request_id: null,
          last_error: message,
          updated_at: at,
          ended_at: at,
        },
      },
      { type: "error", data: { code, message, turn_id: null } },
    ];
  }

  /** Whether the session's expires_at has passed (the expiry check before execution or recovery). */
  expired(state: State): boolean {
    return state.expires_at != null && Date.parse(state.expires_at) <= this.deps.clock.now().getTime();
  }

  /** Fails an expired session with an expired checkpoint (spec, errors rule 4), unless it moved on since `state`. */
  async expire(job: SessionKey, state: State): Promise<void> {
    const failure = this.failure(state, "session_expired", `the session expired at ${state.expires_at!}`, this.iso());
    const summary = `expired at ${state.expires_at!} before it could run`;
    await this.conclude(job, unchanged(state), (events) => [
      checkpointItem(job, events, "expired", "failed", summary),
      ...failure,
    ]);
  }

  /** A run cut off (its process died): a transient failure, so recovering while retries are left, else failed. */
  async crashed(job: SessionKey, state: State): Promise<boolean> {
    const why = `the service stopped during run ${state.attempt_count ?? 0}`;
    // Its holder may yet log the run's end itself (cut off from the store, not dead): only one of the two ends it.
    if ((state.attempt_count ?? 0) <= (state.max_retries ?? 0))
      return this.recovering(job, state, unchanged(state), why);
    const message = `${why}; no retries left after ${state.attempt_count} runs`;
    return this.fail(job, state, unchanged(state), "retries_exhausted", message);
  }

  private iso(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** The session's status, attempt and holder are still those of `state`. */
const unchanged =
  (state: State) =>
  (latest: State): boolean =>
    latest.status === state.status &&
    latest.process_id === state.process_id &&
    latest.attempt_count === state.attempt_count;
