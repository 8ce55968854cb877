// The one writer of a turn's events: every step of a turn logs through it. It keeps the turn's copy of the log and the
// conversation the provider sees current, groups events that are ready together, and gives the event loop back after each write.
import type { SessionEventData, SessionEventType } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import type { ChatMessage } from "../../ports/llm.ts";
import { endsSegment } from "../log/projection.ts";
import type { SessionEventItem, SessionLog } from "../log/session-log.ts";
import { Conversation } from "./history.ts";
import { yieldToRequests } from "./loop-share.ts";

/**
 * The turn was stopped: a background run's caller asked (pause, cancel, a health budget), or another process took a chat
 * turn's lease. Raised only where nothing is half done: before a model step, between its text deltas, before a tool call
 * starts (a call that started logs its outcome), and before a chat turn's write.
 */
export class RunStopped extends Error {}

export interface TurnWriterOptions {
  /** At most this many events that are ready together share one write (HarnessDeps.eventsPerWrite says why). */
  eventsPerWrite: number;
  /** Aborted when another process took a chat turn's lease: then this one writes nothing more (that process ends the turn). */
  lost: AbortSignal | undefined;
  /**
   * A background run's turn: whether a state is still the run's. Its state changes (a wait for an approval) are logged
   * only while it is; else the run stops (another process ended or paused the session meanwhile).
   */
  held?: ((latest: SessionEventData<"session_state">) => boolean) | undefined;
}

export class TurnWriter {
  private readonly conversation: Conversation;

  constructor(
    private readonly log: SessionLog,
    readonly workspaceId: string,
    readonly sessionId: string,
    /** The session's log, read once when the turn (or its continuation) begins; each write appends what it logged. */
    readonly events: StreamEvent[],
    /** A branch's conversation before its own events: its source's up to the branch point. */
    prefix: readonly ChatMessage[],
    private readonly opts: TurnWriterOptions,
  ) {
    this.conversation = new Conversation(prefix);
  }

  /** Logs one event and keeps it, then lets the event loop serve others (a turn never holds it for long). */
  async write<K extends SessionEventType>(type: K, data: SessionEventData<K>): Promise<StreamEvent | null> {
    this.mayWrite();
    const e = await this.log.append(this.workspaceId, this.sessionId, type, data);
    if (e) this.events.push(e);
    await this.yieldAfter(e);
    return e;
  }

  /** Logs events that are ready together, `eventsPerWrite` to a write, letting the loop serve others after each. */
  async writeAll(items: readonly SessionEventItem[]): Promise<void> {
    // A background run's change of state goes in one write with what comes with it (the approval it waits for).
    const together = this.opts.held && items.some((it) => it.type === "session_state");
    const per = together ? items.length : this.opts.eventsPerWrite;
    for (let i = 0; i < items.length; i += per) {
      this.mayWrite();
      const written = await this.append(items.slice(i, i + per));
      this.events.push(...written);
      await this.yieldAfter(written.at(-1));
    }
  }

  private async append(items: readonly SessionEventItem[]): Promise<StreamEvent[]> {
    const held = this.opts.held;
    if (!held || !items.some((it) => it.type === "session_state"))
      return this.log.appendAll(this.workspaceId, this.sessionId, items);
    const logged = await this.log.appendWhile(this.workspaceId, this.sessionId, held, () => items);
    if (!logged) throw new RunStopped();
    return logged;
  }

  /** The conversation the provider sees, folded up to the last event logged. */
  messages(): ChatMessage[] {
    return this.conversation.catchUp(this.events).messages();
  }

  private mayWrite(): void {
    if (this.opts.lost?.aborted) throw new RunStopped();
  }

  /** Not after the last event: the turn must be over (and the session free) by the time its stream ends. */
  private async yieldAfter(e: StreamEvent | null | undefined): Promise<void> {
    if (e && !endsSegment(e)) await yieldToRequests();
  }
}
