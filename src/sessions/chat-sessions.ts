// Chat sessions: create, post a message (the turn runs on whether or not anyone listens, and streams from the log),
// decide an approval, branch, read the detail, follow the events. Everything a client sees is read back from the log.
import { AppError, STORE_RETRY_SECONDS } from "../contract/errors.ts";
import type { SessionEventData } from "../contract/events.ts";
import type { StreamMessage } from "../contract/route.ts";
import { CreateChatSession, type ChatSessionDetail } from "../contract/sessions.ts";
import { StreamMoved, type StreamEvent } from "../ports/event-log.ts";
import type { CallContext } from "../ports/call-context.ts";
import { followStream } from "../services/streams/follow.ts";
import { channelOf } from "./log/channel.ts";
import type { Harness } from "./turn/harness.ts";
import { endUnlogged, isBackground, type TurnOutcome } from "./turn/turn-state.ts";
import {
  branchPoint,
  eventId,
  isSessionId,
  newSessionId,
  newTurnId,
  parseEventId,
  resumeCursor,
  threadSessionId,
  type SessionPoint,
} from "./ids.ts";
import {
  artifacts,
  endsSegment,
  isDecided,
  latestState,
  openTurn,
  pendingApproval,
  resumePoints,
  subagents,
  turnCount,
} from "./log/projection.ts";
import { toMessage, type SessionLog } from "./log/session-log.ts";
import { newSessionState, type SessionSetup } from "./session-state.ts";
import type { LeaseHold, TurnLeases } from "./turn-leases.ts";

type State = SessionEventData<"session_state">;

export class ChatSessions {
  constructor(
    private readonly log: SessionLog,
    private readonly harness: Harness,
    private readonly setup: SessionSetup,
    private readonly leases: TurnLeases,
  ) {}

  async create(call: CallContext, body: CreateChatSession, sessionId = newSessionId()): Promise<State> {
    const { state, raised } = await newSessionState(this.setup, call, body, sessionId, "idle");
    // Only into an empty log (StreamMoved otherwise): a session is opened once, whoever else opens the same id.
    const items = [
      { type: "session_state" as const, data: state },
      ...(raised ? [{ type: "policy_decision" as const, data: raised }] : []),
    ];
    await this.log.appendAll(call.workspaceId, state.session_id, items, 0);
    return state;
  }

  /**
   * The session an AG-UI thread runs in (issue 46): a session id names that session (404 when unknown); any other thread
   * id names a session of its own in this workspace, created with the defaults on its first run.
   */
  async openThread(call: CallContext, threadId: string): Promise<string> {
    if (isSessionId(threadId)) return (await this.current(call, threadId)).state.session_id;
    const sessionId = threadSessionId(call.workspaceId, threadId);
    if (latestState(await this.log.all(call.workspaceId, sessionId))) return sessionId;
    try {
      return (await this.create(call, CreateChatSession.parse({}), sessionId)).session_id;
    } catch (err) {
      if (err instanceof StreamMoved) return sessionId; // another first run of the thread opened it just now
      throw err;
    }
  }

  /** Starts a turn and streams it: `session` first (not logged), then the turn's events until it ends or pauses. */
  async message(
    call: CallContext,
    input: { session_id: string; message: string },
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    const before = await this.current(call, input.session_id);
    await this.finishing(call, input.session_id, before.events);
    this.assertIdle(call, input.session_id, before.events);
    const { hold, events, state } = await this.lease(call, input.session_id, before.events);
    // Runs on whether or not anyone listens; logs its own failures.
    const cut = this.start(
      hold,
      () => this.assertIdle(call, input.session_id, events),
      (lost) => this.harness.turn(call, input.session_id, state, newTurnId(), input.message, lost),
    );
    const after = events.at(-1)!.seq;
    const follow = this.follow(call, input.session_id, after, signal, endsSegment, false, cut);
    return (async function* () {
      yield { id: eventId(input.session_id, after), event: "session", data: { session_id: input.session_id } };
      yield* follow;
    })();
  }

  /** Applies an operator's decision to the pending approval and streams the rest of the paused turn. */
  async decide(
    call: CallContext,
    input: { session_id: string; request_id: string; decision: "approve" | "deny"; note?: string | undefined },
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    const before = await this.current(call, input.session_id);
    pendingAsked(before.events, input.request_id);
    await this.finishing(call, input.session_id, before.events);
    this.assertNotRunning(call, input.session_id);
    // Decided again on the log as it stands with the lease held: another process may have applied it meanwhile.
    const { hold, events, state } = await this.lease(call, input.session_id, before.events);
    let asked: StreamEvent | undefined;
    const cut = this.start(
      hold,
      () => {
        asked = pendingAsked(events, input.request_id);
        this.assertNotRunning(call, input.session_id);
      },
      (lost) => {
        const turnStart = events.findLast((e) => e.type === "turn_start" && e.seq < asked!.seq)!.data as {
          turn_id: string;
          message: string;
        };
        const approval = asked!.data as SessionEventData<"approval_required">;
        return this.harness.resume(
          call,
          input.session_id,
          state,
          turnStart.turn_id,
          turnStart.message,
          approval,
          input.decision,
          lost,
        );
      },
    );
    return this.follow(call, input.session_id, events.at(-1)!.seq, signal, endsSegment, false, cut);
  }

  async detail(call: CallContext, sessionId: string): Promise<ChatSessionDetail> {
    const { events, state } = await this.current(call, sessionId);
    return {
      session: state,
      last_event_id: eventId(sessionId, events.at(-1)!.seq),
      turns: turnCount(events),
      pending_approval: pendingApproval(events),
      resume_points: resumePoints(events),
      subagents: subagents(events) as ChatSessionDetail["subagents"],
      background_artifacts: artifacts(events) as ChatSessionDetail["background_artifacts"],
      channel: channelOf(sessionId, events),
    };
  }

  /** A new session whose conversation is the source's up to the point, seeded with a resume_seed checkpoint; the source is not touched. */
  async branch(
    call: CallContext,
    input: { session_id: string; from_event_id?: string | undefined; resume_cursor?: string | undefined },
  ): Promise<ChatSessionDetail> {
    const { events, state } = await this.current(call, input.session_id);
    const point = branchPoint(input.session_id, events.at(-1)!.seq, input);
    if (input.resume_cursor !== undefined && !resumePoints(events).some((r) => r.resume_cursor === input.resume_cursor))
      throw new AppError("invalid_cursor", "that cursor is not one of the session's resume_points");
    const sessionId = newSessionId();
    const cursor = resumeCursor(point);
    const seeded: State = {
      ...state,
      session_id: sessionId,
      status: "idle",
      approval_request_id: null,
      last_error: null,
      parent_session_id: input.session_id,
      branch_source_event_id: eventId(point.sessionId, point.seq),
      branch_resume_cursor: cursor,
      updated_at: new Date().toISOString(),
    };
    await this.log.append(call.workspaceId, sessionId, "session_state", seeded);
    const turns = turnCount(events.filter((e) => e.seq <= point.seq));
    await this.log.append(call.workspaceId, sessionId, "session_checkpoint", {
      session_id: sessionId,
      sequence: 1,
      checkpoint_type: "resume_seed",
      status: "seeded",
      summary_text: `branched from ${input.session_id} after event ${point.seq} (${turns} turn${turns === 1 ? "" : "s"} carried over)`,
      resume_cursor: cursor,
    });
    return this.detail(call, sessionId);
  }

  /** The session's events after Last-Event-ID (or from the start), then live ones unless `follow` is false. */
  async events(
    call: CallContext,
    input: { session_id: string; follow: boolean } | null,
    lastEventId: string | null,
    sessionId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    const { events } = await this.current(call, sessionId, true);
    const after = lastEventId === null ? 0 : this.afterSeq(sessionId, parseEventId(lastEventId), events);
    if (input?.follow === false) {
      const upTo = events.at(-1)!.seq;
      return this.follow(call, sessionId, after, signal, (e) => e.seq >= upTo, after >= upTo);
    }
    return this.follow(call, sessionId, after, signal, () => false);
  }

  /** The rest of a message's or decision's stream after Last-Event-ID. */
  async resumeSegment(
    call: CallContext,
    sessionId: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    const { events } = await this.current(call, sessionId);
    const after = this.afterSeq(sessionId, parseEventId(lastEventId), events);
    const seen = events.find((e) => e.seq === after);
    // `session` carries the id of the event before its turn, often the last turn's end: then the new turn follows it.
    const nothingAfter =
      seen !== undefined &&
      endsSegment(seen) &&
      seen.seq === events.at(-1)!.seq &&
      !this.harness.isLive(call.workspaceId, sessionId);
    return this.follow(call, sessionId, after, signal, endsSegment, nothingAfter);
  }

  private afterSeq(sessionId: string, point: SessionPoint, events: readonly StreamEvent[]): number {
    if (point.sessionId !== sessionId)
      throw new AppError("event_not_in_session", `Last-Event-ID belongs to another session, not ${sessionId}`);
    if (point.seq > events.at(-1)!.seq)
      throw new AppError("not_found", `session ${sessionId} has no event ${point.seq} yet`);
    return point.seq;
  }

  /** `cut`: aborted when the turn streamed ended without logging its end; the stream then ends with its reason (an error). */
  private follow(
    call: CallContext,
    sessionId: string,
    afterSeq: number,
    signal: AbortSignal,
    isLast = endsSegment,
    done = false,
    cut?: AbortSignal,
  ): AsyncIterable<StreamMessage> {
    const log = this.log.log;
    return (async function* () {
      if (done) return;
      const until = cut ? AbortSignal.any([signal, cut]) : signal;
      for await (const e of followStream(log, call.workspaceId, sessionId, { afterSeq, isLast, signal: until }))
        yield toMessage(e);
      if (cut?.aborted && !signal.aborted) throw cut.reason;
    })();
  }

  /**
   * The session's events and state as they stand; 404 for an unknown session or another workspace's. A turn open in
   * the log but running nowhere here was cut off by a restart: it is ended (logged) first, so every reader sees it ended.
   */
  private async current(
    call: CallContext,
    sessionId: string,
    anyKind = false,
  ): Promise<{ events: StreamEvent[]; state: State }> {
    let events = await this.log.all(call.workspaceId, sessionId);
    const state = latestState(events);
    if (!state || state.agent_profile === undefined)
      throw new AppError("not_found", `no chat session '${sessionId}' in this workspace`);
    // A background session's stream reads like any other; its turns are its supervisor's to end or go on with.
    if (isBackground(state)) {
      if (anyKind) return { events, state };
      throw new AppError("not_found", `'${sessionId}' is a background session: use /sessions/${sessionId}`);
    }
    const open = openTurn(events);
    // Running nowhere: not here, and no live process holds its lease (the lease is taken to end it, so only one does).
    const hold =
      open && !this.harness.isLive(call.workspaceId, sessionId)
        ? await this.leases.take({ workspaceId: call.workspaceId, sessionId })
        : null;
    if (hold) {
      try {
        const now = await this.log.all(call.workspaceId, sessionId);
        const still = openTurn(now);
        if (still && !this.harness.isLive(call.workspaceId, sessionId))
          await this.harness.fail(
            call,
            sessionId,
            latestState(now)!,
            still.turnId,
            "turn_interrupted",
            "the service stopped during this turn; what it logged is kept, send the message again to retry",
          );
      } finally {
        await this.leases.release(hold);
      }
      events = await this.log.all(call.workspaceId, sessionId);
    }
    return { events, state: latestState(events)! };
  }

  private assertIdle(call: CallContext, sessionId: string, events: readonly StreamEvent[]): void {
    this.assertNotRunning(call, sessionId);
    const pending = pendingApproval(events);
    if (pending)
      throw new AppError(
        "awaiting_approval",
        `the session waits for a decision on ${pending.tool_name} (request ${pending.request_id})`,
        { request_id: pending.request_id },
      );
  }

  /**
   * A turn whose end (or pause) is already logged is only finishing its bookkeeping: wait for it, so a client that read
   * the turn's last event may send the next at once (on PostgreSQL that bookkeeping is a round trip or two).
   */
  private async finishing(call: CallContext, sessionId: string, events: readonly StreamEvent[]): Promise<void> {
    const last = events.at(-1);
    if (last && endsSegment(last)) await this.harness.settled(call.workspaceId, sessionId);
  }

  /**
   * The session's lease for a turn here, and the session as it stands once it is held (the checks before ran on a read
   * up to the handover old). 409 while a turn runs in another process.
   */
  private async lease(
    call: CallContext,
    sessionId: string,
    events: readonly StreamEvent[],
  ): Promise<{ hold: LeaseHold; events: StreamEvent[]; state: State }> {
    const last = events.at(-1);
    const hold = await this.leases.take(
      { workspaceId: call.workspaceId, sessionId },
      last !== undefined && endsSegment(last),
    );
    if (!hold)
      throw new AppError(
        "turn_in_progress",
        "a turn of this session is running in another process; wait for it to end (follow GET /sessions/{id}/events/stream)",
      );
    try {
      const fresh = await this.log.all(call.workspaceId, sessionId);
      return { hold, events: fresh, state: latestState(fresh)! };
    } catch (err) {
      await this.leases.release(hold);
      throw err;
    }
  }

  /**
   * Runs `check`, then `run` in the same tick (so a second request here sees the turn live), holding the lease until
   * the turn ends; a failed check lets go of it.
   */
  private start(hold: LeaseHold, check: () => void, run: (lost: AbortSignal) => Promise<TurnOutcome>): AbortSignal {
    try {
      check();
    } catch (err) {
      void this.leases.release(hold);
      throw err;
    }
    // A turn that could not log its end (the store went away) ends its stream with the error: the log's end comes later,
    // when a read finds the turn open and running nowhere (turn_interrupted).
    const cut = new AbortController();
    void run(hold.lost)
      .then(
        (o) =>
          endUnlogged(o) &&
          cut.abort(
            new AppError(
              o.code === "store_unavailable" ? "store_unavailable" : "internal_error",
              `${o.message}; the turn's end is logged once the store answers, send the message again then`,
              storeRetry(o.code),
            ),
          ),
      )
      .finally(() => this.leases.release(hold))
      .catch(() => {}); // the lease lapses by itself when it cannot be released
    return cut.signal;
  }

  private assertNotRunning(call: CallContext, sessionId: string): void {
    if (this.harness.isLive(call.workspaceId, sessionId))
      throw new AppError(
        "turn_in_progress",
        "a turn is running in this session; wait for it to end (follow GET /sessions/{id}/events/stream)",
      );
  }
}

/** The approval request `requestId` of the session, when it still waits for a decision; else not_found or approval_settled. */
function pendingAsked(events: readonly StreamEvent[], requestId: string): StreamEvent {
  const asked = events.find(
    (e) => e.type === "approval_required" && (e.data as { request_id: string }).request_id === requestId,
  );
  if (!asked) throw new AppError("not_found", `no approval request '${requestId}' in this session`);
  if (pendingApproval(events)?.request_id !== requestId)
    throw new AppError(
      "approval_settled",
      `approval request '${requestId}' ${isDecided(events, requestId) ? "was already decided" : "no longer waits: its turn ended"}`,
    );
  return asked;
}

/** The retry hint of a store_unavailable error, for the stream's error event as for a 503's Retry-After. */
const storeRetry = (code: string) =>
  code === "store_unavailable" ? { retry_after_seconds: STORE_RETRY_SECONDS } : undefined;
