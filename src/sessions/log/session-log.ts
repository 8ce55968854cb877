// A session's events in the event log: each appended one is checked against its schema in the registry first, and each
// session_state is mirrored into the session's row (what lists sessions and what the supervisor scans).
import { sessionEvents, type SessionEventData, type SessionEventType } from "../../contract/events.ts";
import type { StreamMessage } from "../../contract/route.ts";
import type { Clock } from "../../ports/clock.ts";
import { StreamMoved, type EventLog, type StreamEvent } from "../../ports/event-log.ts";
import type { SessionIndex } from "../../ports/session-index.ts";
import { eventId, sessionKey } from "../ids.ts";
import { latestState, latestStateEvent } from "./projection.ts";
import { SessionTails } from "./session-tails.ts";

const PAGE = 1_000;

/**
 * What a decision on a session reads: its states, approvals and checkpoints. A conditional write is overtaken only by
 * these; a run's streamed output logged meanwhile (on another replica) is no reason to decide again, and a run writing
 * without pause would otherwise keep an operator's cancel from ever landing.
 */
const DECISIVE = ["session_state", "session_checkpoint", "approval_required", "approval_applied"] as const;

export type Emit = <K extends SessionEventType>(type: K, data: SessionEventData<K>) => Promise<StreamEvent | null>;

/** One event to log, its data checked against its type. */
export type SessionEventItem = { [K in SessionEventType]: { type: K; data: SessionEventData<K> } }[SessionEventType];

export class SessionLog {
  private readonly tails: SessionTails;

  constructor(
    readonly log: EventLog,
    readonly index: SessionIndex,
    private readonly clock: Clock,
    /** Events kept in memory across reads (default 50,000). */
    cachedEvents?: number,
  ) {
    this.tails = new SessionTails(cachedEvents);
  }

  /** Logs a persisted event (the registry says which are); an unpersisted one only passes its schema. */
  async append<K extends SessionEventType>(
    workspaceId: string,
    sessionId: string,
    type: K,
    data: SessionEventData<K>,
  ): Promise<StreamEvent | null> {
    const def = sessionEvents[type];
    const checked = def.data.parse(data) as unknown;
    if (!def.persisted) return null;
    const at = this.clock.now().getTime();
    const [logged] = await this.log.appendStream(workspaceId, sessionId, [{ type, at, data: checked }]);
    if (type === "session_state") await this.mirror(workspaceId, sessionId, logged!);
    return logged!;
  }

  /**
   * Logs several persisted events in one write: all or none of them (a run's start is its state and its run record
   * together). With `afterSeq`, only while no state, approval or checkpoint follows it (StreamMoved otherwise).
   */
  async appendAll(
    workspaceId: string,
    sessionId: string,
    items: readonly { type: SessionEventType; data: unknown }[],
    afterSeq?: number,
  ): Promise<StreamEvent[]> {
    const at = this.clock.now().getTime();
    const drafts = items.map(({ type, data }) => ({ type, at, data: sessionEvents[type].data.parse(data) as unknown }));
    const condition = afterSeq === undefined ? undefined : { afterSeq, types: DECISIVE };
    const logged = await this.log.appendStream(workspaceId, sessionId, drafts, condition);
    const state = latestStateEvent(logged);
    if (state) await this.mirror(workspaceId, sessionId, state);
    return logged;
  }

  /**
   * Logs what `items` makes of the log (read afresh) in one write, while the session's latest state `holds`, and only
   * while no state, approval or checkpoint has followed what it was made from: a write that lost a race reads again and
   * decides again (five times at most).
   * Null when the state no longer holds: another process moved the session on, and nothing was written.
   */
  async appendWhile(
    workspaceId: string,
    sessionId: string,
    holds: (latest: SessionEventData<"session_state">) => boolean,
    items: (events: StreamEvent[]) => readonly { type: SessionEventType; data: unknown }[],
  ): Promise<StreamEvent[] | null> {
    for (let attempt = 1; ; attempt++) {
      const events = await this.all(workspaceId, sessionId);
      const latest = latestState(events);
      if (!latest || !holds(latest)) return null;
      try {
        return await this.appendAll(workspaceId, sessionId, items(events), events.at(-1)?.seq ?? 0);
      } catch (err) {
        if (!(err instanceof StreamMoved) || attempt === 5) throw err;
      }
    }
  }

  /**
   * The row of a session as its logged state says (a background session has an engine); creation time is kept on
   * update, and a row already mirroring a later state stays (another process's mirror can land first).
   */
  mirror(workspaceId: string, sessionId: string, logged: StreamEvent): Promise<void> {
    const state = logged.data as SessionEventData<"session_state">;
    return this.index.upsertSession({
      workspaceId,
      sessionId,
      kind: state.engine === undefined ? "chat" : "background",
      status: state.status,
      state,
      stateSeq: logged.seq,
      createdAt: logged.at,
      updatedAt: logged.at,
      heartbeatAt: null,
    });
  }

  emitter(workspaceId: string, sessionId: string): Emit {
    return (type, data) => this.append(workspaceId, sessionId, type, data);
  }

  /**
   * Every event of the session up to `throughSeq`, oldest first (a new array; the events themselves are frozen); [] for
   * an unknown session or another workspace's. What was read before comes from memory; only newer events are fetched.
   */
  async all(workspaceId: string, sessionId: string, throughSeq = Number.MAX_SAFE_INTEGER): Promise<StreamEvent[]> {
    const key = sessionKey(workspaceId, sessionId);
    const out = [...this.tails.get(key)];
    for (let after = out.at(-1)?.seq ?? 0; after < throughSeq; after = out.at(-1)!.seq) {
      const page = await this.log.readStream(workspaceId, sessionId, after, PAGE);
      this.tails.extend(key, after, page);
      out.push(...page);
      if (page.length < PAGE) break;
    }
    return out.at(-1) && out.at(-1)!.seq > throughSeq ? out.filter((e) => e.seq <= throughSeq) : out;
  }
}

export const toMessage = (e: StreamEvent): StreamMessage => ({
  id: eventId(e.stream, e.seq),
  event: e.type,
  data: e.data,
});
