// The supervisor: runs background sessions (at most maxRunning at once, the rest queued), keeps their heartbeats,
// watches their health budgets and stops them when asked; what a run's end means for the session is `run-ends.ts`'s.
// At start it recovers what a crash cut off; every tick it picks up stale runs and sessions queued by another process.
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { HealthPolicy } from "../../contract/health.ts";
import type { Clock } from "../../ports/clock.ts";
import { StreamMoved, type StreamEvent } from "../../ports/event-log.ts";
import type { SessionKey, StoredSessionRow } from "../../ports/session-index.ts";
import { sessionKey } from "../ids.ts";
import { deadOnThisHost, PROCESS_ID } from "../lease-holder.ts";
import { heldByRun, latestState, latestStateEvent } from "../log/projection.ts";
import type { SessionLog } from "../log/session-log.ts";
import { checkpointItem, Checkpoints } from "./checkpoints.ts";
import { callOf, resumeContextOf, type BackgroundEngine, type RunOutcome, type State } from "./engine.ts";
import { healthOf, tripped } from "./health.ts";
import { RunEnds, type StopReason } from "./run-ends.ts";

/** Statuses a supervisor runs (or goes on running after a restart). */
const RUNNABLE = new Set(["queued", "running", "recovering"]);
export const TERMINAL = new Set(["completed", "failed", "cancelled"]);

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

type Job = SessionKey;

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
  /** Whether a state is still this run's (set once it runs): another is the end another process logged for it. */
  ours: ((latest: State) => boolean) | null;
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
  readonly checkpoints: Checkpoints;
  /** What a run's end (or a crashed run's recovery) leaves the session in. */
  readonly ends: RunEnds;

  constructor(private readonly deps: SupervisorDeps) {
    this.staleMs = 3 * deps.heartbeatMs;
    this.checkpoints = new Checkpoints(deps.log);
    this.ends = new RunEnds({
      log: deps.log,
      clock: deps.clock,
      requeue: (job, afterMs) => setTimeout(() => this.enqueue(job.workspaceId, job.sessionId), afterMs).unref(),
    });
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

  /**
   * Stops a live run for `reason` and waits until its end is logged; false when it does not run here, or was already
   * stopping for another reason (then the caller logs its own decision, if it still applies).
   */
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
    return run.reason === reason; // a run already stopping for another reason (its lease lost, say) logged not this one
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
      ours: null,
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
    const begun = await this.begin(run);
    if (!begun) return;
    const { state, running } = begun;
    const resume = resumeContextOf(state);
    const engine = this.deps.engines[state.engine ?? "native"]!;
    const emit = this.deps.log.emitter(workspaceId, sessionId);
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
        checkpoint: (type, status, summary, extras) => this.checkpoints.write(run.job, type, status, summary, extras),
        awaitApproval: (items) => this.ends.whileHeld(run.job, running, items),
      });
    } finally {
      unsubscribe();
    }
    await this.ends.settle(run.job, running, outcome, run.reason, this.running);
  }

  /**
   * Takes the lease and logs the run's start, its running state and run record in one write (attempt_count always
   * equals the run records), after the state it was decided on: an operator's pause or cancel logged elsewhere
   * meanwhile stands, and the run does not start. Null when it does not (not runnable, another holder, expired).
   */
  private async begin(run: LiveRun): Promise<{ state: State; running: State } | null> {
    const { workspaceId, sessionId } = run.job;
    for (let attempt = 1; ; attempt++) {
      const events = await this.deps.log.all(workspaceId, sessionId);
      const state = latestState(events);
      if (!state || !RUNNABLE.has(state.status)) return null; // paused or cancelled while it waited
      const now = this.deps.clock.now();
      const claim = () =>
        this.deps.log.index.claimSession(run.job, this.processId, now.getTime(), now.getTime() - this.staleMs);
      if (attempt === 1 && !(await claim())) {
        run.reason = { kind: "lease_lost" }; // another process runs it
        return null;
      }
      run.phase = "leased";
      if (this.ends.expired(state)) {
        await this.ends.expire(run.job, state);
        return null;
      }
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
      const artifact = {
        type: "run_record",
        run_id: `run_${randomUUID()}`,
        engine: engine.id,
        attempt: running.attempt_count,
        process_id: this.processId,
      };
      const summary = `run ${running.attempt_count} (${engine.id}) in ${this.processId}`;
      const record = checkpointItem(run.job, events, "run_record", "started", summary, { artifact });
      const items = [{ type: "session_state" as const, data: running }, record];
      try {
        run.events = [
          ...events,
          ...(await this.deps.log.appendAll(workspaceId, sessionId, items, events.at(-1)?.seq ?? 0)),
        ];
      } catch (err) {
        if (err instanceof StreamMoved && attempt < 10) continue;
        throw err;
      }
      // Only now: a budget check the tick began before this run's state was logged reads the queued state before it.
      run.ours = heldByRun(running);
      return { state, running };
    }
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

  /**
   * Stops the run when its events so far cross a budget of its health policy, or when another process ended or paused
   * the session meanwhile (an operator on another replica): then it stops and writes nothing.
   */
  private judge(run: LiveRun): void {
    if (run.reason) return;
    const state = latestState(run.events);
    const policy = run.policy;
    if (!state || !policy) return;
    if (run.ours && !run.ours(state)) {
      run.reason = { kind: "ended_elsewhere" };
      return run.controller.abort();
    }
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
      const logged = latestStateEvent(await this.deps.log.all(row.workspaceId, row.sessionId));
      if (!logged) continue;
      const state = logged.data as State;
      if (state.status !== row.status) await this.deps.log.mirror(row.workspaceId, row.sessionId, logged);
      const job = { workspaceId: row.workspaceId, sessionId: row.sessionId };
      if (!RUNNABLE.has(state.status)) continue;
      // A dead holder's lease is taken at once, but only from that holder: if another replica took it first, it stays.
      const takeOverFrom = holderGone && row.owner !== null ? row.owner : undefined;
      if (!(await this.deps.log.index.claimSession(job, this.processId, now, now - this.staleMs, takeOverFrom)))
        continue;
      if (state.status !== "running") this.enqueue(job.workspaceId, job.sessionId);
      // Its holder logged the run's end after all: the lease just taken goes back.
      else if (!(await this.ends.crashed(job, state))) await this.deps.log.index.releaseSessions(this.processId, [job]);
    }
  }
}

/** The health policy in a background session's state (defaults when it has none). */
export const policyOf = (state: State): HealthPolicy =>
  HealthPolicy.parse(resumeContextOf(state).metadata.policy ?? {});
