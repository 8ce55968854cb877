// Work on the event loop that can wait for requests (a small ingest's analysis and embedding) runs in slices through a
// gate: slices run back to back while a turn's budget lasts, then the loop polls its sockets before the next. A request
// that arrives meanwhile (a recall) waits for at most one budget and a slice, not for every queued slice.
import { afterNextPoll } from "./loop-yield.ts";

/** Loop time queued slices may take in one turn before the loop polls again: sets how long a request waits behind them. */
export const TURN_BUDGET_MS = 1;

export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  /** A slice holds the gate (its awaits do not let the next one in). */
  private busy = false;
  /** An admission is scheduled after the next poll. */
  private scheduled = false;
  private turnStarted = 0;

  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** Runs `slice` once the loop has polled for requests and the slices queued before it have run. */
  async run<T>(slice: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.busy && !this.scheduled) this.admitAfterPoll();
    });
    try {
      return await slice();
    } finally {
      this.leave();
    }
  }

  private leave(): void {
    if (this.waiting.length > 0 && performance.now() - this.turnStarted < this.budgetMs) this.waiting.shift()!();
    else {
      this.busy = false;
      if (this.waiting.length > 0) this.admitAfterPoll();
    }
  }

  private admitAfterPoll(): void {
    this.scheduled = true;
    afterNextPoll(() => {
      this.scheduled = false;
      this.busy = true;
      this.turnStarted = performance.now();
      this.waiting.shift()!();
    });
  }
}
