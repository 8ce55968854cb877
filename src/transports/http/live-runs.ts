// Runs still streaming in this process: buffered events plus waiters, so a client can resume before the run is logged.

export interface StreamEvent {
  event: "run_started" | "step" | "run_complete";
  data: unknown;
}

interface LiveRun {
  workspaceId: string;
  events: StreamEvent[];
  done: boolean;
  wake: Set<() => void>;
}

/** Finished runs linger briefly: by then the audit log holds them, but a resume racing the end still finds them here. */
const LINGER_MS = 30_000;

export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>();

  start(trajectoryId: string, workspaceId: string): void {
    this.runs.set(trajectoryId, { workspaceId, events: [], done: false, wake: new Set() });
  }

  push(trajectoryId: string, event: StreamEvent): number {
    const run = this.runs.get(trajectoryId);
    if (!run) return -1;
    run.events.push(event);
    for (const wake of run.wake) wake();
    return run.events.length - 1;
  }

  finish(trajectoryId: string): void {
    const run = this.runs.get(trajectoryId);
    if (!run) return;
    run.done = true;
    for (const wake of run.wake) wake();
    setTimeout(() => this.runs.delete(trajectoryId), LINGER_MS).unref();
  }

  has(trajectoryId: string, workspaceId: string): boolean {
    return this.runs.get(trajectoryId)?.workspaceId === workspaceId;
  }

  /** How many events a finished run sent; undefined while it runs (it may send more) or when it is not here. */
  sentBy(trajectoryId: string): number | undefined {
    const run = this.runs.get(trajectoryId);
    return run?.done ? run.events.length : undefined;
  }

  /** Yields the run's events after index `after`, waiting for new ones until the run is done. */
  async *follow(trajectoryId: string, after: number): AsyncGenerator<[number, StreamEvent]> {
    const run = this.runs.get(trajectoryId);
    if (!run) return;
    for (let i = after + 1; ; i++) {
      while (i >= run.events.length && !run.done) await new Promise<void>((resolve) => run.wake.add(function once() { run.wake.delete(once); resolve(); }));
      const event = run.events[i];
      if (!event) return;
      yield [i, event];
    }
  }
}
