// Event streams (a grounded-answer run, an agent session): an append-only log per stream, read after a seq, followed live.

/** An event before the log gives it its place in the stream. */
export interface StreamEventDraft {
  type: string;
  at: number;
  data: unknown;
}

/** A logged event: its stream's seq counts from 1 with no gaps. */
export interface StreamEvent extends StreamEventDraft {
  stream: string;
  seq: number;
}

/** `appended`: the events just logged through this handle, in order; null when they were logged elsewhere. */
export type Wake = (appended: readonly StreamEvent[] | null) => void;

/**
 * Processes on one store that tell each other of appends directly (the workers of one `smriti serve --workers`), so a
 * follower in one process wakes at once when another appends instead of at its next poll.
 */
export interface AppendNotices {
  /** Tells the other processes that this one appended to the stream. */
  publish(workspaceId: string, stream: string): void;
  /** Calls `heard` for each append another process published. */
  listen(heard: (workspaceId: string, stream: string) => void): void;
  /**
   * This process follows the stream until the returned function runs. Notices that send an append only where it is
   * followed take this; without it every append is told.
   */
  follow?(workspaceId: string, stream: string): () => void;
}

/** An append made on condition that the stream ended at a seq found it had moved on: nothing was written. */
export class StreamMoved extends Error {
  constructor(
    readonly stream: string,
    readonly expected: number,
    readonly found: number,
  ) {
    super(`stream ${stream} ends at ${found}, not ${expected}`);
  }

  /**
   * Throws when an append on condition of `afterSeq` (none: no condition) finds the stream ending before it, or an event
   * that counts after it: `lastCounted` is the last seq of the condition's types (the stream's last without types).
   */
  static check(stream: string, afterSeq: number | undefined, last: number, lastCounted = last): void {
    if (afterSeq !== undefined && (last < afterSeq || lastCounted > afterSeq))
      throw new StreamMoved(stream, afterSeq, last);
  }
}

/** The condition of an append: the stream still ends at `afterSeq`, or no event of one of `types` follows it. */
export interface AppendCondition {
  afterSeq: number;
  /** Only these types count as moving the stream on (a decision read from states is not undone by streamed text). */
  types?: readonly string[];
}

export interface EventLog {
  /**
   * Appends to the workspace's stream in one write, after its last event. With a condition, only while it holds
   * (otherwise StreamMoved, nothing written): a writer that decided on what it read is not overtaken.
   */
  appendStream(
    workspaceId: string,
    stream: string,
    drafts: readonly StreamEventDraft[],
    condition?: AppendCondition,
  ): Promise<StreamEvent[]>;
  /** The stream's events after `afterSeq`, oldest first, at most `limit`; none for an unknown stream or another workspace's. */
  readStream(workspaceId: string, stream: string, afterSeq: number, limit: number): Promise<StreamEvent[]>;
  /**
   * Calls `wake` after each append to the stream: with the events this handle just logged, or null when another process
   * appended (a reader then reads after its seq). Returns the unsubscribe. A follower that must see appends made by
   * another process also polls (followStream does).
   */
  subscribeStream(workspaceId: string, stream: string, wake: Wake): () => void;
}
