// Per-workspace tallies by chunk hash, bounded (a workspace's map is cleared past the cap): chitta's impressions, karma's outcomes.
export class ChunkTallies {
  private readonly byWorkspace = new Map<string, Map<string, number>>();

  constructor(private readonly cap = 100_000) {}

  add(workspaceId: string, chunkHashes: readonly string[], delta: number): void {
    const m = this.byWorkspace.get(workspaceId) ?? new Map<string, number>();
    if (m.size >= this.cap) m.clear();
    for (const h of chunkHashes) m.set(h, (m.get(h) ?? 0) + delta);
    this.byWorkspace.set(workspaceId, m);
  }

  get(workspaceId: string, chunkHash: string): number {
    return this.byWorkspace.get(workspaceId)?.get(chunkHash) ?? 0;
  }

  /** Per workspace: how many chunks have a tally, and the tallies' sum (inspection). */
  summary(workspaceId?: string): Record<string, { chunks: number; total: number }> {
    const out: Record<string, { chunks: number; total: number }> = {};
    for (const [ws, m] of this.byWorkspace)
      if (workspaceId === undefined || ws === workspaceId)
        out[ws] = { chunks: m.size, total: [...m.values()].reduce((a, b) => a + b, 0) };
    return out;
  }
}
