// The supervisor: runs background sessions (at most maxRunning at once, the rest queued), keeps their heartbeats,
// watches their health budgets, stops them when asked, and decides what a run's end means for the session: completed,
// recovering (a transient failure with retries left), failed, expired, paused, cancelled or awaiting an approval.
// At start it recovers what a crash cut off; every tick it picks up stale runs and sessions queued by another process.
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type { SessionEventData, SessionEventType } from "../../contract/events.ts";
import { HealthPolicy } from "../../contract/health.ts";
import type { Clock } from "../../ports/clock.ts";
import { StreamMoved, type StreamEvent } from "../../ports/event-log.ts";
import type { StoredSessionRow } from "../../ports/session-index.ts";
import { newRequestId, resumeCursor, sessionKey } from "../ids.ts";
import { deadOnThisHost, PROCESS_ID } from "../lease-holder.ts";
import { clip, latestState } from "../log/projection.ts";
import type { SessionLog } from "../log/session-log.ts";
import {
  callOf,
  resumeContextOf,
  type BackgroundEngine,
  type CheckpointExtras,
  type RunOutcome,
  type State,
} from "./engine.ts";
import { healthOf, tripped } from "./health.ts";

type Checkpoint = SessionEventData<"session_checkpoint">;

/** What a stopped run becomes. */
export type StopReason =
  | { kind: "pause" }
  | { kind: "cancel" }
  | { kind: "shutdown" }
  | { kind: "health"; action: "approval" | "pause"; budgets: string[] }
  // Another supervisor took the run over (this one looked dead): it writes nothing more, the new holder goes on.
  | { kind: "lease_lost" };

/** Statuses a supervisor runs (or goes on running after a restart). */
const RUNNABLE = new Set(["queued", "running", "recovering"]);
export const TERMINAL = new Set(["completed", "failed", "cancelled"]);
/** Statuses a run leaves its session in while it is live (waiting for an approval it asked for is one). */
const LIVE = new Set(["running", "awaiting_approval"]);
/** Retries wait 250 ms, 500 ms, ... up to 30 s. */
const backoff = (attempt: number) => Math.min(30_000, 250 * 2 ** Math.max(0, attempt - 1));

export interface SupervisorDeps {
  log: SessionLog;
  engines: Record<string, BackgroundEngine>;
  clock: Clock;
  heartbeatMs: number;
  maxRunning: number;
  taskRoot: string;
  logError(msg: string): void;
  /** Told of each session queued while this supervisor does not run: the process that runs them (a session process). */
  queuedElsewhere?: ((workspaceId: string, sessionId: string) => void) | undefined;
}

interface Job {
  workspaceId: string;
  sessionId: string;
}

interface LiveRun {
  controller: AbortController;
  reason: StopReason | null;
  done: Promise<void>;
  job: Job;
  /** The log as the health watcher last read it. */
  events: StreamEvent[];
  watching: boolean;
  /** The session's health policy, read once per run (it is fixed when the session starts). */
  policy: HealthPolicy | null;
  /** starting until it holds the lease, ended once its outcome is logged (its release may still be under way). */
  phase: "starting" | "leased" | "ended";
}

export class Supervisor {
  readonly processId = PROCESS_ID;
  readonly staleMs: number;
  private readonly live = new Map<string, LiveRun>();
  private readonly queue = new Map<string, Job>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly deps: SupervisorDeps) {
    this.staleMs = 3 * deps.heartbeatMs;
  }

  /** Recovers what a restart cut off, then ticks (heartbeats, budgets, stale runs, sessions queued elsewhere). */
  async start(): Promise<void> {
    this.running = true;
    await this.scan(true);
    this.timer = setInterval(() => void this.tick(), this.deps.heartbeatMs);
    this.timer.unref();
  }

  /** Stops ticking and hands each live run back as recovering (the next start goes on with it). */
  async close(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.queue.clear();
    await Promise.all([...this.live.keys()].map((key) => this.stopKey(key, { kind: "shutdown" })));
  }

  isLive(workspaceId: string, sessionId: string): boolean {
    return this.live.has(sessionKey(workspaceId, sessionId));
  }

  /** The engines this supervisor runs. */
  get engines(): string[] {
    return Object.keys(this.deps.engines);
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Nothing runs or waits to run here (a retry's backoff has its session in the store as recovering, see `waiting`). */
  get idle(): boolean {
    return this.live.size === 0 && this.queue.size === 0;
  }

  /**
   * Whether a background session waits for a process to run it: runnable, and its holder gone or stale (the ones a
   * supervisor starting now would take up). A serving process whose session process is stopped starts one for it.
   */
  async waiting(): Promise<boolean> {
    const staleBefore = this.deps.clock.now().getTime() - this.staleMs;
    const rows = await this.deps.log.index.sessionsInStatus("background", [...RUNNABLE]);
    // A session queued a moment ago is its queuing process's to start (as in `scan`); a run's row waits once its holder is gone.
    const waits = (row: StoredSessionRow) =>
      row.status === "queued"
        ? row.updatedAt < staleBefore
        : row.owner === null || deadOnThisHost(row.owner) || (row.heartbeatAt ?? row.updatedAt) < staleBefore;
    return rows.some(waits);
  }

  enqueue(workspaceId: string, sessionId: string): void {
    // A one-shot CLI process (a serving process picks the session up), or a serving process with a session process.
    if (!this.running) return this.deps.queuedElsewhere?.(workspaceId, sessionId);
    // Queued even while a run of it is live: that run may be ending, and the next one starts when it has.
    this.queue.set(sessionKey(workspaceId, sessionId), { workspaceId, sessionId });
    this.pump();
  }

  /** Takes a session off the queue; false when it was not waiting there. */
  dequeue(workspaceId: string, sessionId: string): boolean {
    return this.queue.delete(sessionKey(workspaceId, sessionId));
  }

  /** Stops a live run and waits until its end is logged; false when it does not run here. */
  stop(workspaceId: string, sessionId: string, reason: StopReason): Promise<boolean> {
    return this.stopKey(sessionKey(workspaceId, sessionId), reason);
  }

  private async stopKey(key: string, reason: StopReason): Promise<boolean> {
    const run = this.live.get(key);
    if (!run || run.phase === "ended") return false;
    return this.stopRun(run, reason);
  }

  private async stopRun(run: LiveRun, reason: StopReason): Promise<boolean> {
    run.reason ??= reason;
    run.controller.abort();
    await run.done;
    return true;
  }

  private pump(): void {
    for (const [key, job] of this.queue) {
      if (this.live.size >= this.deps.maxRunning) return;
      if (this.live.has(key)) continue; // dispatched again when its live run has ended
      this.queue.delete(key);
      this.dispatch(key, job);
    }
  }

  /** Marks the run live synchronously (a second dispatch or a pause sees it), then runs it. */
  private dispatch(key: string, job: Job): void {
    if (this.live.has(key)) return;
    const run: LiveRun = {
      controller: new AbortController(),
      reason: null,
      done: Promise.resolve(),
      job,
      events: [],
      watching: false,
      policy: null,
      phase: "starting",
    };
    this.live.set(key, run);
    run.done = this.run(run)
      .catch((err: unknown) =>
        this.deps.logError(
          `background session ${job.sessionId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        ),
      )
      .then(() => void (run.phase = "ended"))
      .then(() =>
        run.reason?.kind === "lease_lost" ? undefined : this.deps.log.index.releaseSessions(this.processId, [job]),
      )
      .catch((err: unknown) =>
        this.deps.logError(
          `background session ${job.sessionId}: lease release: ${err instanceof Error ? err.message : String(err)}`,
        ),
      )
      .finally(() => {
        this.live.delete(key);
        this.pump();
      });
  }

  private async run(run: LiveRun): Promise<void> {
    const { workspaceId, sessionId } = run.job;
    const events = await this.deps.log.all(workspaceId, sessionId);
    const state = latestState(events);
    if (!state || !RUNNABLE.has(state.status)) return; // paused or cancelled while it waited
    const now = this.deps.clock.now();
    if (
      !(await this.deps.log.index.claimSession(run.job, this.processId, now.getTime(), now.getTime() - this.staleMs))
    ) {
      run.reason = { kind: "lease_lost" }; // another process runs it
      return;
    }
    run.phase = "leased";
    if (this.expired(state)) return this.expire(run.job, state);
    const resume = resumeContextOf(state);
    run.policy = policyOf(state);
    const running: State = {
      ...state,
      status: "running",
      attempt_count: (state.attempt_count ?? 0) + 1,
      process_id: this.processId,
      last_heartbeat_at: now.toISOString(),
      last_error: null,
      ended_at: null,
    };
    const engine = this.deps.engines[state.engine ?? "native"]!;
    const emit = this.deps.log.emitter(workspaceId, sessionId);
    // The running state and the run's record in one write: attempt_count always equals the run records.
    const artifact = {
      type: "run_record",
      run_id: `run_${randomUUID()}`,
      engine: engine.id,
      attempt: running.attempt_count,
      process_id: this.processId,
    };
    const record = this.checkpointData(
      run.job,
      events,
      "run_record",
      "started",
      `run ${running.attempt_count} (${engine.id}) in ${this.processId}`,
      { artifact },
    );
    run.events = [
      ...events,
      ...(await this.deps.log.appendAll(workspaceId, sessionId, [
        { type: "session_state", data: running },
        { type: "session_checkpoint", data: record },
      ])),
    ];
    const unsubscribe = this.deps.log.log.subscribeStream(workspaceId, sessionId, (appended) =>
      this.watch(run, appended),
    );
    let outcome: RunOutcome;
    try {
      outcome = await engine.run({
        call: callOf(state, resume),
        sessionId,
        state: running,
        resume,
        events: run.events,
        emit,
        signal: run.controller.signal,
        taskDir: join(this.deps.taskRoot, workspaceId, sessionId),
        checkpoint: (type, status, summary, extras) => this.checkpoint(run.job, type, status, summary, extras),
      });
    } finally {
      unsubscribe();
    }
    await this.settle(run, running, outcome);
  }

  /** What the run's end means for the session. */
  private async settle(run: LiveRun, running: State, outcome: RunOutcome): Promise<void> {
    const job = run.job;
    const at = this.iso();
    if (outcome.status === "completed") {
      const artifact = { type: "final_output", text: outcome.output, citations: outcome.citations };
      const ended = { ...running, status: "completed", approval_request_id: null, updated_at: at, ended_at: at };
      await this.conclude(job, runOf(running), (events) => [
        this.checkpointItem(job, events, "final_output", "completed", clip(outcome.output || "(no output)", 200), {
          artifact,
        }),
        { type: "session_state", data: ended },
        { type: "completed", data: { session_id: job.sessionId } },
      ]);
    } else if (outcome.status === "stopped") await this.stopped(job, running, run.reason ?? { kind: "shutdown" });
    // An operator paused or cancelled it as it began to wait: that decision stands over the wait.
    else if (outcome.status === "awaiting_approval" && (run.reason?.kind === "pause" || run.reason?.kind === "cancel"))
      await this.stopped(job, running, run.reason);
    else if (outcome.status === "error") {
      if (outcome.transient && !this.running) return this.handBack(job, running, outcome.message);
      if (outcome.transient && running.attempt_count! <= running.max_retries!)
        return void (await this.recovering(job, running, runOf(running), outcome.message));
      await this.fail(
        job,
        running,
        runOf(running),
        outcome.code,
        outcome.transient
          ? `${outcome.message} (no retries left after ${running.attempt_count} runs)`
          : outcome.message,
      );
    }
    // awaiting_approval: the engine logged the request and the waiting state.
  }

  private async stopped(job: Job, running: State, reason: StopReason): Promise<void> {
    if (reason.kind === "lease_lost") return;
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
      (events: readonly StreamEvent[]) => [
        this.checkpointItem(job, events, type, status, summary, opts),
        state(status),
      ];
    const ours = runOf(running);
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
    job: Job,
    stillOurs: (latest: State) => boolean,
    items: (events: StreamEvent[]) => Items,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const events = await this.deps.log.all(job.workspaceId, job.sessionId);
      const latest = latestState(events);
      if (!latest || !stillOurs(latest)) return false;
      try {
        await this.deps.log.appendAll(job.workspaceId, job.sessionId, items(events), events.at(-1)?.seq ?? 0);
        return true;
      } catch (err) {
        if (!(err instanceof StreamMoved) || attempt === 5) throw err;
      }
    }
  }

  /** A transient failure with retries left: recovering now, running again after a backoff. */
  private async recovering(
    job: Job,
    state: State,
    stillOurs: (latest: State) => boolean,
    why: string,
  ): Promise<boolean> {
    const recovering = { ...state, status: "recovering", last_error: why, updated_at: this.iso() };
    const summary = `attempt ${state.attempt_count} failed (${clip(why, 120)}); retrying`;
    const logged = await this.conclude(job, stillOurs, (events) => [
      this.checkpointItem(job, events, "recovery", "recovering", summary),
      { type: "session_state", data: recovering },
    ]);
    if (logged)
      setTimeout(() => this.enqueue(job.workspaceId, job.sessionId), backoff(state.attempt_count ?? 1)).unref();
    return logged;
  }

  /** A shutdown hands the run back: recovering, for the next start to go on with (a restart is not the run's fault). */
  private async handBack(job: Job, running: State, why: string): Promise<void> {
    const recovering = { ...running, status: "recovering", last_error: why, updated_at: this.iso() };
    await this.conclude(job, runOf(running), () => [{ type: "session_state", data: recovering }]);
  }

  /** failed with last_error, then `error`, in one write. */
  private async fail(
    job: Job,
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
  async expire(job: Job, state: State): Promise<void> {
    const failure = this.failure(state, "session_expired", `the session expired at ${state.expires_at!}`, this.iso());
    const summary = `expired at ${state.expires_at!} before it could run`;
    await this.conclude(job, unchanged(state), (events) => [
      this.checkpointItem(job, events, "expired", "failed", summary),
      ...failure,
    ]);
  }

  /** A checkpoint at the log's end (its cursor resumes or branches from there), with a typed artifact when it persists one. */
  /** Logs a checkpoint and, in the same write, the events that go with it (the state it leaves the session in). */
  async checkpoint(
    job: Job,
    type: string,
    status: string,
    summary: string,
    opts: CheckpointExtras = {},
    ...also: { type: SessionEventType; data: unknown }[]
  ): Promise<void> {
    const events = await this.deps.log.all(job.workspaceId, job.sessionId);
    await this.deps.log.appendAll(job.workspaceId, job.sessionId, [
      this.checkpointItem(job, events, type, status, summary, opts),
      ...also,
    ]);
  }

  /**
   * As `checkpoint`, on the events the caller read, and only while the last of them ends the log (StreamMoved
   * otherwise); `before` goes in the same write ahead of the checkpoint, numbered as if appended on its own.
   */
  async checkpointAfter(
    job: Job,
    events: readonly StreamEvent[],
    before: Items,
    type: string,
    status: string,
    summary: string,
    ...also: Items
  ): Promise<void> {
    const last = events.at(-1)?.seq ?? 0;
    const ahead = before.map((b, i) => ({
      type: b.type,
      at: 0,
      data: b.data,
      stream: job.sessionId,
      seq: last + i + 1,
    }));
    const item = this.checkpointItem(job, [...events, ...ahead], type, status, summary);
    await this.deps.log.appendAll(job.workspaceId, job.sessionId, [...before, item, ...also], last);
  }

  private checkpointItem(
    job: Job,
    events: readonly StreamEvent[],
    type: string,
    status: string,
    summary: string,
    opts: CheckpointExtras = {},
  ): { type: "session_checkpoint"; data: Checkpoint } {
    return { type: "session_checkpoint", data: this.checkpointData(job, events, type, status, summary, opts) };
  }

  /**
   * Checkpoints logged in the same write as `before`, the events that open a new session's stream: numbered and with
   * cursors as if each had been appended on its own after them.
   */
  checkpointsAfter(
    job: Job,
    before: readonly { type: SessionEventType }[],
    checkpoints: readonly { type: string; status: string; summary: string; opts?: CheckpointExtras }[],
  ): { type: "session_checkpoint"; data: Checkpoint }[] {
    const events: StreamEvent[] = before.map(({ type }, i) => ({ type, at: 0, data: null, stream: "", seq: i + 1 }));
    return checkpoints.map(({ type, status, summary, opts }) => {
      const data = this.checkpointData(job, events, type, status, summary, opts ?? {});
      events.push({ type: "session_checkpoint", at: 0, data, stream: "", seq: events.length + 1 });
      return { type: "session_checkpoint" as const, data };
    });
  }

  private checkpointData(
    job: Job,
    events: readonly StreamEvent[],
    type: string,
    status: string,
    summary: string,
    opts: CheckpointExtras,
  ): Checkpoint {
    const sequence = events.filter((e) => e.type === "session_checkpoint").length + 1;
    const cursor =
      opts.cursor ?? (events.length ? resumeCursor({ sessionId: job.sessionId, seq: events.at(-1)!.seq }) : null);
    const { artifact, budgets } = opts;
    return {
      session_id: job.sessionId,
      sequence,
      checkpoint_type: type,
      status,
      summary_text: summary,
      resume_cursor: cursor,
      ...(artifact ? { artifact } : {}),
      ...(budgets ? { budgets } : {}),
    };
  }

  /**
   * Checks the budgets after each event of the run. Events this process appended, following on from what the run has
   * read, are judged at once: a crossed budget stops the run before its next step, not a store read later. Other
   * appends (another process's, or ones that leave a gap) are read from the store, once per burst of events.
   */
  private watch(run: LiveRun, appended: readonly StreamEvent[] | null): void {
    if (run.watching || run.reason) return;
    if (appended?.[0] && appended[0].seq === (run.events.at(-1)?.seq ?? 0) + 1) {
      run.events.push(...appended);
      return this.judge(run);
    }
    run.watching = true;
    setImmediate(
      () =>
        void this.checkBudgets(run)
          .catch((err: unknown) =>
            this.deps.logError(
              `background session ${run.job.sessionId}: budget check: ${err instanceof Error ? err.message : String(err)}`,
            ),
          )
          .finally(() => (run.watching = false)),
    );
  }

  private async checkBudgets(run: LiveRun): Promise<void> {
    if (run.reason) return;
    const { workspaceId, sessionId } = run.job;
    const after = run.events.at(-1)?.seq ?? 0;
    run.events.push(...(await this.deps.log.log.readStream(workspaceId, sessionId, after, 10_000)));
    this.judge(run);
  }

  /** Stops the run when its events so far cross a budget of its health policy. */
  private judge(run: LiveRun): void {
    if (run.reason) return;
    const state = latestState(run.events);
    const policy = run.policy;
    if (!state || !policy) return;
    const now = this.deps.clock.now().getTime();
    const crossed = tripped(
      healthOf({ events: run.events, state, policy, heartbeatAt: now, now, staleMs: this.staleMs }),
      policy,
    );
    if (crossed.length && !run.reason) {
      run.reason = { kind: "health", action: policy.health.action, budgets: crossed };
      run.controller.abort();
    }
  }

  private async tick(): Promise<void> {
    try {
      const now = this.deps.clock.now().getTime();
      // Only runs that hold a lease: one starting or ending has none (or just gave it back) and would look lost.
      const leased = [...this.live.values()].filter((r) => r.phase === "leased");
      const lost = leased.length
        ? await this.deps.log.index.heartbeatSessions(
            this.processId,
            leased.map((r) => r.job),
            now,
          )
        : [];
      for (const key of lost) {
        // The run this heartbeat was for, if it still runs: a newer run of the session holds a lease of its own.
        const run = this.live.get(sessionKey(key.workspaceId, key.sessionId));
        if (run?.phase === "leased" && leased.includes(run)) void this.stopRun(run, { kind: "lease_lost" });
      }
      for (const run of leased) this.watch(run, null); // runtime budgets move with the clock
      await this.scan(false);
    } catch (err) {
      this.deps.logError(`supervisor tick: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Runs nobody runs: at start every runnable row whose holder is gone (this process in a former life, a dead process on
   * this host, or a heartbeat gone stale); later, stale rows and rows queued by another process (a CLI on the same
   * data). A crashed run is claimed before it is recovered, so of several replicas exactly one recovers it. The log
   * decides: a row behind its log is rewritten from it.
   */
  private async scan(atStart: boolean): Promise<void> {
    const now = this.deps.clock.now().getTime();
    for (const row of await this.deps.log.index.sessionsInStatus("background", [...RUNNABLE])) {
      const key = sessionKey(row.workspaceId, row.sessionId);
      if (this.live.has(key) || this.queue.has(key)) continue;
      const holderGone = row.owner === null || row.owner === this.processId || deadOnThisHost(row.owner);
      // Queued elsewhere and left waiting for a while (not one being prepared or queued here a moment ago).
      const stale =
        row.status === "queued"
          ? now - row.updatedAt > this.staleMs
          : row.heartbeatAt === null || now - row.heartbeatAt > this.staleMs;
      if (!stale && !(atStart && holderGone)) continue;
      const events = await this.deps.log.all(row.workspaceId, row.sessionId);
      const state = latestState(events);
      if (!state) continue;
      if (state.status !== row.status) await this.deps.log.mirror(row.workspaceId, row.sessionId, state, now);
      const job = { workspaceId: row.workspaceId, sessionId: row.sessionId };
      if (!RUNNABLE.has(state.status)) continue;
      // A dead holder's lease is taken at once, but only from that holder: if another replica took it first, it stays.
      const takeOverFrom = holderGone && row.owner !== null ? row.owner : undefined;
      if (!(await this.deps.log.index.claimSession(job, this.processId, now, now - this.staleMs, takeOverFrom)))
        continue;
      if (state.status !== "running") this.enqueue(job.workspaceId, job.sessionId);
      // Its holder logged the run's end after all: the lease just taken goes back.
      else if (!(await this.crashed(job, state))) await this.deps.log.index.releaseSessions(this.processId, [job]);
    }
  }

  /** A run cut off (its process died): a transient failure, so recovering while retries are left, else failed. */
  private async crashed(job: Job, state: State): Promise<boolean> {
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

export type Items = { type: SessionEventType; data: unknown }[];

/** The session is still where the run left it: its attempt, in this process, running or waiting on its own approval. */
const runOf =
  (running: State) =>
  (latest: State): boolean =>
    LIVE.has(latest.status) &&
    latest.process_id === running.process_id &&
    latest.attempt_count === running.attempt_count;

/** The session's status, attempt and holder are still those of `state`. */
const unchanged =
  (state: State) =>
  (latest: State): boolean =>
    latest.status === state.status &&
    latest.process_id === state.process_id &&
    latest.attempt_count === state.attempt_count;

/** The health policy in a background session's state (defaults when it has none). */
export const policyOf = (state: State): HealthPolicy =>
  HealthPolicy.parse(resumeContextOf(state).metadata.policy ?? {});
