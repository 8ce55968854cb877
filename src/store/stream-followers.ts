// Who follows which event stream in this process: an adapter wakes them after each append it commits.
export class StreamFollowers {
  private readonly byStream = new Map<string, Set<() => void>>();

  subscribe(workspaceId: string, stream: string, wake: () => void): () => void {
    const k = key(workspaceId, stream);
    const set = this.byStream.get(k) ?? new Set();
    this.byStream.set(k, set.add(wake));
    return () => {
      set.delete(wake);
      if (set.size === 0) this.byStream.delete(k);
    };
  }

  wake(workspaceId: string, stream: string): void {
    for (const wake of this.byStream.get(key(workspaceId, stream)) ?? []) wake();
  }
}

const key = (workspaceId: string, stream: string) => `${workspaceId}\u0000${stream}`;
