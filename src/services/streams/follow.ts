// Follows one stream of the event log: what is logged after a seq, then each new event as it lands, until a terminal one.
import type { EventLog, StreamEvent } from "../../ports/event-log.ts";

/** A follower that missed a wake-up (an append by another process) still sees it within this. */
const POLL_MS = 1_000;
const PAGE = 500;

export interface Follow {
  afterSeq: number;
  isLast(e: StreamEvent): boolean;
  /** Ends the follow at once (the client went away), even while it waits for the next event. */
  signal?: AbortSignal | undefined;
}

/**
 * Yields the stream's events after `afterSeq` in order, waiting for more; returns after the first `isLast` one or on abort.
 * Events this process appends are taken as handed over when they continue from the last one yielded; otherwise (another
 * process appended, or the handed-over run does not join up) the store is read.
 */
export async function* followStream(
  log: EventLog,
  workspaceId: string,
  stream: string,
  opts: Follow,
): AsyncGenerator<StreamEvent> {
  let woken = () => {};
  let timer: NodeJS.Timeout | undefined;
  /** A contiguous run of events handed over by this process's appends, not yet yielded. */
  let handed: StreamEvent[] = [];
  const unsubscribe = log.subscribeStream(workspaceId, stream, (appended) => {
    const first = appended?.[0];
    const last = handed.at(-1);
    if (first && (!last || first.seq === last.seq + 1)) handed.push(...appended);
    else handed = []; // a gap: the store has what came between
    woken();
  });
  const abort = () => woken();
  opts.signal?.addEventListener("abort", abort);
  try {
    for (let seq = opts.afterSeq; !opts.signal?.aborted;) {
      // Armed before the read, so an append between the read and the wait is not missed.
      const wake = new Promise<void>((resolve) => {
        woken = resolve;
        timer = setTimeout(resolve, POLL_MS);
      });
      const after = seq;
      const unseen = handed.filter((e) => e.seq > after);
      handed = [];
      const page = unseen[0]?.seq === seq + 1 ? unseen : await log.readStream(workspaceId, stream, seq, PAGE);
      for (const event of page) {
        if (opts.signal?.aborted) return;
        yield event;
        if (opts.isLast(event)) return;
        seq = event.seq;
      }
      if (page.length < PAGE && handed.length === 0) await wake;
      clearTimeout(timer);
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", abort);
    unsubscribe();
  }
}
