// Background sessions as operators drive them: start, list, read, pause, resume or branch, cancel, decide an approval,
// follow the health. Each transition the spec's state table allows is checked here against the log's current state;
// the supervisor runs what is runnable.
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../../contract/errors.ts";
import type { BackgroundSessionDetail, SessionList, StartBackgroundSession } from "../../contract/background.ts";
import type { SessionEventData, SessionEventType } from "../../contract/events.ts";
import type { HealthSnapshot } from "../../contract/health.ts";
import type { StreamMessage } from "../../contract/route.ts";
import { StreamMoved, type StreamEvent } from "../../ports/event-log.ts";
import { requireScope } from "../../services/auth.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { channelOf } from "../log/channel.ts";
import { isBackground } from "../turn/turn-state.ts";
import { branchPoint, eventId, newSessionId, parseEventId, resumeCursor } from "../ids.ts";
import { artifacts, latestState } from "../log/projection.ts";
import type { SessionLog } from "../log/session-log.ts";
import { delegatedBy, TITLE_EVENTS, titleOf } from "../log/session-summary.ts";
import { newSessionState, type SessionSetup } from "../session-state.ts";
import type { ResumeContext, State } from "./engine.ts";
import { healthOf } from "./health.ts";
import { checkpointsAfter, type Items } from "./checkpoints.ts";
import type { StopReason } from "./run-ends.ts";
import { policyOf, TERMINAL, type Supervisor } from "./supervisor.ts";
import { taskGraph, type TaskGraph } from "./task-graph.ts";

type Approval = SessionEventData<"approval_required">;
type Data = Record<string, unknown>;

const CHECKPOINTS = 50;
const PAUSABLE = new Set(["running", "queued", "recovering"]);

export class BackgroundSessions {
  constructor(
    private readonly log: SessionLog,
    private readonly supervisor: Supervisor,
    private readonly setup: SessionSetup,
    private readonly taskRoot: string,
  ) {}

  async start(call: CallContext, body: StartBackgroundSession): Promise<BackgroundSessionDetail> {
    if (body.engine !== "native") requireScope(call, "execute"); // command and a2a run the operator's commands or call out
    if (!this.supervisor.engines.includes(body.engine))
      throw new AppError(
        "invalid_request",
        `engine '${body.engine}' is not available here; available: ${this.supervisor.engines.join(", ")}`,
      );
    // What it would execute is the operator's to allow, checked before anything is written.
    const plan = this.setup.execution.rules.plan(call.workspaceName, body);
    const sessionId = newSessionId();
    const { state: common, raised } = await newSessionState(this.setup, call, body, sessionId, "queued", plan);
    const writes = body.permission_mode !== "read-only";
    const graph = writes ? taskGraph(body.task) : null;
    const resume: ResumeContext = {
      task: body.task,
      actor_id: call.actorId,
      token_id: call.tokenId,
      workspace_name: call.workspaceName,
      agent: body.agent,
      agent_params: body.agent_params,
      scopes: [...call.scopes],
      command: body.command,
      agent_url: body.agent_url,
      metadata: body.metadata,
    };
    const state: State = {
      ...common,
      engine: body.engine,
      runner_kind: "supervisor",
      approval_request_id: null,
      task_graph_id: graph?.id ?? null,
      process_id: null,
      attempt_count: 0,
      max_retries: body.max_retries,
      expires_at: body.expires_at ?? null,
      parent_session_id: null,
      branch_source_event_id: null,
      branch_resume_cursor: null,
      last_heartbeat_at: null,
      last_error: null,
      ended_at: null,
      resume_context: resume,
    };
    const job = { workspaceId: call.workspaceId, sessionId };
    const opening = [
      { type: "session_state" as const, data: state },
      ...(raised ? [{ type: "policy_decision" as const, data: raised }] : []),
    ];
    // Already past its expiry: it fails before execution with an expired checkpoint, as a queued one would (spec, errors rule 4).
    const expired = this.supervisor.ends.expired(state);
    const prepared = expired ? [] : await this.prepare(job, graph, state, opening);
    await this.log.appendAll(call.workspaceId, sessionId, [...opening, ...prepared]);
    if (expired) await this.supervisor.ends.expire(job, state);
    else this.supervisor.enqueue(call.workspaceId, sessionId);
    return this.detail(call, sessionId);
  }

  async list(
    call: CallContext,
    q: {
      status?: string | undefined;
      kind?: "chat" | "background" | undefined;
      cursor?: string | undefined;
      limit: number;
    },
  ): Promise<SessionList> {
    const beforeSeq = q.cursor === undefined ? undefined : parseListCursor(q.cursor);
    const rows = await this.log.index.listSessions(call.workspaceId, {
      status: q.status,
      kind: q.kind,
      beforeSeq,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const sessions = await Promise.all(
      page.map(async (row) => {
        const state = row.state as State;
        const about = { delegated_by: delegatedBy(state) };
        if (row.kind === "chat") {
          const head = await this.log.log.readStream(call.workspaceId, row.sessionId, 0, TITLE_EVENTS);
          return { session: state, kind: row.kind, title: titleOf(state, head), ...about, health: null };
        }
        const events = await this.log.all(call.workspaceId, row.sessionId);
        const current = latestState(events) ?? state;
        const health = this.health(events, current, row.heartbeatAt);
        return {
          session: this.withHeartbeat(current, row.heartbeatAt),
          kind: row.kind,
          title: titleOf(current, []),
          ...about,
          health,
        };
      }),
    );
    return { sessions, next_cursor: rows.length > q.limit ? `sl1.${page.at(-1)!.seq}` : null };
  }

  async detail(call: CallContext, sessionId: string): Promise<BackgroundSessionDetail> {
    const { events, state, heartbeatAt } = await this.current(call, sessionId);
    const checkpoints = events.filter((e) => e.type === "session_checkpoint");
    return {
      session: this.withHeartbeat(state, heartbeatAt),
      last_event_id: eventId(sessionId, events.at(-1)!.seq),
      task: (state.resume_context as ResumeContext).task,
      policy: policyOf(state),
      pending_approval: pendingOf(events, state),
      checkpoints: checkpoints
        .slice(-CHECKPOINTS)
        .reverse()
        .map((e) => ({
          ...(e.data as SessionEventData<"session_checkpoint">),
          event_id: eventId(sessionId, e.seq),
          at: new Date(e.at).toISOString(),
        })),
      artifacts: [
        ...checkpoints
          .filter((e) => (e.data as Data).artifact)
          .map((e) => ({
            ...((e.data as Data).artifact as { type: string }),
            event_id: eventId(sessionId, e.seq),
            seq: e.seq,
          })),
        ...artifacts(events).map((a) => ({
          ...(a as { type: string; event_id: string }),
          seq: parseEventId(String(a.event_id)).seq,
        })),
      ]
        .sort((a, b) => b.seq - a.seq)
        .map(({ seq: _seq, ...a }) => a),
      health: this.health(events, state, heartbeatAt),
      channel: channelOf(sessionId, events),
    };
  }

  /** running, queued or recovering -> paused (not terminal: row, checkpoints and artifacts kept). */
  async pause(call: CallContext, sessionId: string): Promise<BackgroundSessionDetail> {
    return this.halt(call, sessionId, { kind: "pause" }, PAUSABLE);
  }

  /** Any status but a terminal one -> cancelled (terminal). */
  async cancel(call: CallContext, sessionId: string): Promise<BackgroundSessionDetail> {
    return this.halt(
      call,
      sessionId,
      { kind: "cancel" },
      new Set(["running", "queued", "recovering", "paused", "awaiting_approval"]),
    );
  }

  private async halt(
    call: CallContext,
    sessionId: string,
    reason: StopReason & { kind: "pause" | "cancel" },
    from: ReadonlySet<string>,
  ): Promise<BackgroundSessionDetail> {
    await this.onFreshRead(sessionId, reason.kind, async () => {
      const { events, state } = await this.current(call, sessionId);
      if (!from.has(state.status)) throw transition(state.status, reason.kind, from);
      if (await this.supervisor.stop(call.workspaceId, sessionId, reason)) return;
      this.supervisor.dequeue(call.workspaceId, sessionId);
      const at = new Date().toISOString();
      const job = { workspaceId: call.workspaceId, sessionId };
      const status = reason.kind === "pause" ? "paused" : "cancelled";
      const next = {
        ...state,
        status,
        approval_request_id: null,
        updated_at: at,
        ...(status === "cancelled" ? { ended_at: at } : {}),
      };
      const summary = `${status} by an operator while ${state.status}`;
      await this.supervisor.checkpoints.writeAfter(job, events, [], status, status, summary, {
        type: "session_state",
        data: next,
      });
    });
    return this.detail(call, sessionId);
  }

  /**
   * Runs a step that reads the session, decides and writes after what it read, again when the log moved on in between
   * (a run ending elsewhere, another operator's decision): what it decided on is read afresh, never overwritten.
   */
  private async onFreshRead(sessionId: string, action: string, step: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (err) {
        if (!(err instanceof StreamMoved)) throw err;
        if (attempt === 10) throw new AppError("conflict", `session '${sessionId}' kept changing; ${action} again`);
      }
    }
  }

  /** No point: a paused session is requeued. With from_event_id or resume_cursor: a new session branched from that point. */
  async resume(
    call: CallContext,
    input: { session_id: string; from_event_id?: string | undefined; resume_cursor?: string | undefined },
  ): Promise<BackgroundSessionDetail> {
    if (input.from_event_id !== undefined || input.resume_cursor !== undefined) {
      const { events, state } = await this.current(call, input.session_id);
      return this.branch(call, input, events, state);
    }
    await this.onFreshRead(input.session_id, "resume", async () => {
      const { events, state } = await this.current(call, input.session_id);
      if (state.status !== "paused") throw transition(state.status, "resume", new Set(["paused"]));
      const queued = { ...state, status: "queued", updated_at: new Date().toISOString() };
      const items: Items = [{ type: "session_state", data: queued }];
      await this.log.appendAll(call.workspaceId, input.session_id, items, events.at(-1)?.seq ?? 0);
    });
    // Read before it is queued: the answer says what resume did, not how far a run that began meanwhile has got.
    const resumed = await this.detail(call, input.session_id);
    this.supervisor.enqueue(call.workspaceId, input.session_id);
    return resumed;
  }

  private async branch(
    call: CallContext,
    input: { session_id: string; from_event_id?: string | undefined; resume_cursor?: string | undefined },
    events: StreamEvent[],
    state: State,
  ): Promise<BackgroundSessionDetail> {
    if (state.engine !== "native") requireScope(call, "execute"); // a branch runs the command or remote agent again
    const point = branchPoint(input.session_id, events.at(-1)!.seq, input);
    const upTo = events.filter((e) => e.seq <= point.seq);
    const start = upTo.findLast((e) => e.type === "turn_start");
    const turnId = start ? String((start.data as Data).turn_id) : null;
    const finished =
      turnId !== null &&
      upTo.some(
        (e) => e.type === "turn_end" && (e.data as Data).turn_id === turnId && (e.data as Data).status === "completed",
      );
    const sessionId = newSessionId();
    // A branch that may write gets a task graph and workspace of its own, as a new session does (spec: background states).
    const graph =
      state.permission_mode !== "read-only" ? taskGraph((state.resume_context as ResumeContext).task) : null;
    const cursor = resumeCursor(point);
    const resume: ResumeContext = {
      ...(state.resume_context as ResumeContext),
      continue_turn_id: turnId && !finished ? turnId : undefined,
    };
    const at = new Date().toISOString();
    const seeded: State = {
      ...state,
      session_id: sessionId,
      status: "queued",
      approval_request_id: null,
      task_graph_id: graph?.id ?? null,
      process_id: null,
      attempt_count: 0,
      parent_session_id: input.session_id,
      branch_source_event_id: eventId(point.sessionId, point.seq),
      branch_resume_cursor: cursor,
      last_heartbeat_at: null,
      last_error: null,
      updated_at: at,
      ended_at: null,
      resume_context: resume,
    };
    const job = { workspaceId: call.workspaceId, sessionId };
    const goesOn = resume.continue_turn_id ? "goes on with the task from there" : "runs the task again from there";
    // The seed's cursor is the source's point (the harness reads the source's conversation up to it), not the branch's own end.
    const opening = [
      { type: "session_state" as const, data: seeded },
      ...checkpointsAfter(
        job,
        [{ type: "session_state" }],
        [
          {
            type: "resume_seed",
            status: "seeded",
            summary: `branched from ${input.session_id} after event ${point.seq}; ${goesOn}`,
            opts: { cursor },
          },
        ],
      ),
    ];
    await this.log.appendAll(call.workspaceId, sessionId, [
      ...opening,
      ...(await this.prepare(job, graph, seeded, opening)),
    ]);
    this.supervisor.enqueue(call.workspaceId, sessionId);
    return this.detail(call, sessionId);
  }

  /**
   * A write-capable session's task graph and isolated task workspace, prepared before it runs and kept as artifacts:
   * the checkpoints to log in the same write as `opening`, so no supervisor can find the session queued unprepared.
   */
  private async prepare(
    job: { workspaceId: string; sessionId: string },
    graph: TaskGraph | null,
    state: State,
    opening: readonly { type: SessionEventType }[],
  ) {
    if (!graph) return [];
    const dir = join(this.taskRoot, job.workspaceId, job.sessionId);
    await mkdir(dir, { recursive: true });
    const tasks = `${graph.nodes.length} task${graph.nodes.length === 1 ? "" : "s"}`;
    return checkpointsAfter(job, opening, [
      { type: "task_graph", status: "prepared", summary: tasks, opts: { artifact: { type: "task_graph", ...graph } } },
      {
        type: "task_workspace",
        status: "prepared",
        summary: dir,
        opts: { artifact: { type: "task_workspace", path: dir, isolation: state.sandbox_isolation } },
      },
    ]);
  }

  /** An operator's decision on what the session waits for: a tool call (its turn goes on) or a health budget. */
  async decide(
    call: CallContext,
    input: { session_id: string; request_id: string; decision: "approve" | "deny" },
  ): Promise<BackgroundSessionDetail> {
    await this.onFreshRead(input.session_id, "decide", () => this.decideOnce(call, input));
    return this.detail(call, input.session_id);
  }

  private async decideOnce(
    call: CallContext,
    input: { session_id: string; request_id: string; decision: "approve" | "deny" },
  ): Promise<void> {
    const { events, state } = await this.current(call, input.session_id);
    const pending = pendingOf(events, state);
    if (pending?.request_id !== input.request_id) {
      const asked = events.some(
        (e) => e.type === "approval_required" && (e.data as Data).request_id === input.request_id,
      );
      if (!asked) throw new AppError("not_found", `no approval request '${input.request_id}' in this session`);
      throw new AppError(
        "approval_settled",
        `approval request '${input.request_id}' no longer waits (the session is ${state.status})`,
      );
    }
    // Decided before a restart cut the rest short (a log from before the decision and its state were one write): the
    // decision stands, only the requeue is left to do.
    const decided = events.find(
      (e) => e.type === "approval_applied" && (e.data as Data).request_id === input.request_id,
    );
    if (decided && (decided.data as Data).decision !== input.decision)
      throw new AppError(
        "approval_settled",
        `approval request '${input.request_id}' was already decided: ${String((decided.data as Data).decision)}`,
      );
    // The decision and what it leaves the session in, in one write after what was read: of two operators deciding at
    // once, one decides and the other reads again and is told it is settled.
    const applied: Items = decided
      ? []
      : [
          {
            type: "approval_applied",
            data: { request_id: input.request_id, tool_name: pending.tool_name, decision: input.decision },
          },
        ];
    const at = new Date().toISOString();
    if (pending.tool_name === "health_policy" && input.decision === "deny") {
      const cancelled = { ...state, status: "cancelled", approval_request_id: null, updated_at: at, ended_at: at };
      await this.supervisor.checkpoints.writeAfter(
        { workspaceId: call.workspaceId, sessionId: input.session_id },
        events,
        applied,
        "cancelled",
        "cancelled",
        "an operator denied going on past the health budget",
        { type: "session_state", data: cancelled },
      );
    } else {
      // A denied tool call still goes on: the turn hears it was denied and answers without it.
      const queued = { ...state, status: "queued", approval_request_id: null, updated_at: at };
      const items: Items = [...applied, { type: "session_state", data: queued }];
      await this.log.appendAll(call.workspaceId, input.session_id, items, events.at(-1)?.seq ?? 0);
      this.supervisor.enqueue(call.workspaceId, input.session_id);
    }
  }

  /** The snapshot now, and again each time it changes; ends after a terminal status. The id is the snapshot's hash. */
  async healthStream(
    call: CallContext,
    sessionId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    await this.current(call, sessionId);
    return this.snapshots(call, sessionId, lastEventId, signal);
  }

  private async *snapshots(
    call: CallContext,
    sessionId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): AsyncGenerator<StreamMessage> {
    let last = lastEventId;
    while (!signal.aborted) {
      const { events, state, heartbeatAt } = await this.current(call, sessionId);
      const snapshot = this.health(events, state, heartbeatAt);
      const id = `hs1.${createHash("sha256").update(JSON.stringify(snapshot)).digest("base64url").slice(0, 16)}`;
      if (id !== last) yield { id, event: "health_snapshot", data: snapshot };
      last = id;
      if (TERMINAL.has(state.status)) return;
      // The heartbeat ages between appends: a stuck run shows without a new event.
      await changeOrTick(this.log, call.workspaceId, sessionId, this.supervisor.staleMs / 3, signal);
    }
  }

  private health(events: readonly StreamEvent[], state: State, heartbeatAt: number | null): HealthSnapshot {
    return healthOf({
      events,
      state,
      policy: policyOf(state),
      heartbeatAt,
      now: Date.now(),
      staleMs: this.supervisor.staleMs,
    });
  }

  private withHeartbeat(state: State, heartbeatAt: number | null): State {
    return {
      ...state,
      last_heartbeat_at: heartbeatAt === null ? (state.last_heartbeat_at ?? null) : new Date(heartbeatAt).toISOString(),
    };
  }

  /** The session's log, latest state and heartbeat; 404 for an unknown session, another workspace's, or a chat session. */
  private async current(
    call: CallContext,
    sessionId: string,
  ): Promise<{ events: StreamEvent[]; state: State; heartbeatAt: number | null }> {
    const events = await this.log.all(call.workspaceId, sessionId);
    const state = latestState(events);
    if (!state || !isBackground(state))
      throw new AppError(
        "not_found",
        `no background session '${sessionId}' in this workspace${state ? " (it is a chat session: GET /chat/sessions/{id})" : ""}`,
      );
    const row = await this.log.index.getSession(call.workspaceId, sessionId);
    return { events, state, heartbeatAt: row?.heartbeatAt ?? null };
  }
}

/** What the session waits on: the request its state names. */
function pendingOf(events: readonly StreamEvent[], state: State): Approval | null {
  if (state.status !== "awaiting_approval" || !state.approval_request_id) return null;
  const asked = events.findLast(
    (e) => e.type === "approval_required" && (e.data as Data).request_id === state.approval_request_id,
  );
  return asked ? (asked.data as Approval) : null;
}

function transition(status: string, action: string, from: ReadonlySet<string>): AppError {
  return new AppError(
    "invalid_transition",
    `cannot ${action} a session that is ${status}; ${action} applies to: ${[...from].join(", ")}`,
    { status, action, allowed: [...from] },
  );
}

function parseListCursor(cursor: string): number {
  const m = /^sl1\.(\d+)$/.exec(cursor);
  if (!m) throw new AppError("invalid_cursor", "cursor is not a next_cursor this service handed out");
  return Number(m[1]);
}

/** Resolves after the session's next append or `ms`, whichever comes first (or at once when the client left). */
function changeOrTick(
  log: SessionLog,
  workspaceId: string,
  sessionId: string,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = log.log.subscribeStream(workspaceId, sessionId, done);
    signal.addEventListener("abort", done);
  });
}
