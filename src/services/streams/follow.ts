// Follows one stream of the event log: what is logged after a seq, then each new event as it lands, until a terminal one.
import type { EventLog, StreamEvent } from "../../ports/event-log.ts";

/** A follower that missed a wake-up (an append by another process) still sees it within this. */
const POLL_MS = 1_000;
const PAGE = 500;

/** Yields the stream's events after `afterSeq` in order, waiting for more, and returns after the first `isLast` one. */
export async function* followStream(log: EventLog, workspaceId: string, stream: string, afterSeq: number, isLast: (e: StreamEvent) => boolean): AsyncGenerator<StreamEvent> {
  let woken = () => {};
  const unsubscribe = log.subscribeStream(workspaceId, stream, () => woken());
  try {
    for (let seq = afterSeq; ; ) {
      // Armed before the read, so an append between the read and the wait is not missed.
      let timer: NodeJS.Timeout | undefined;
      const wake = new Promise<void>((resolve) => {
        woken = resolve;
        timer = setTimeout(resolve, POLL_MS);
      });
      const page = await log.readStream(workspaceId, stream, seq, PAGE);
      for (const event of page) {
        yield event;
        if (isLast(event)) return clearTimeout(timer);
        seq = event.seq;
      }
      if (page.length < PAGE) await wake;
      clearTimeout(timer);
    }
  } finally {
    unsubscribe();
  }
}
