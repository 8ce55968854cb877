// Who follows which event stream in this process: an adapter wakes them after each append it commits.
import type { StreamEvent, Wake } from "../ports/event-log.ts";

export class StreamFollowers {
  private readonly byStream = new Map<string, Set<Wake>>();

  subscribe(workspaceId: string, stream: string, wake: Wake): () => void {
    const k = key(workspaceId, stream);
    const set = this.byStream.get(k) ?? new Set();
    this.byStream.set(k, set.add(wake));
    return () => {
      set.delete(wake);
      if (set.size === 0) this.byStream.delete(k);
    };
  }

  /** `appended`: the events this process just committed (followers take them without a read); null: another process did. */
  wake(workspaceId: string, stream: string, appended: readonly StreamEvent[] | null): void {
    for (const wake of this.byStream.get(key(workspaceId, stream)) ?? []) wake(appended);
  }

  /** Every follower reads the store again: notices of other processes' appends may have been missed meanwhile. */
  wakeAll(): void {
    for (const set of this.byStream.values()) for (const wake of set) wake(null);
  }
}

const key = (workspaceId: string, stream: string) => `${workspaceId}\u0000${stream}`;
