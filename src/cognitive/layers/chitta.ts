// chitta (memory impressions): activation by recency among the candidates and by how often a chunk was recalled before.
import { adjustHead, headSize } from "../evidence.ts";
import type { Layer } from "../types.ts";

/** How many times each chunk hash was served, per workspace (bounded: a workspace's map is cleared past the cap). */
export class Impressions {
  private readonly byWorkspace = new Map<string, Map<string, number>>();

  constructor(private readonly cap = 100_000) {}

  see(workspaceId: string, chunkHashes: readonly string[]): void {
    const m = this.byWorkspace.get(workspaceId) ?? new Map<string, number>();
    if (m.size >= this.cap) m.clear();
    for (const h of chunkHashes) m.set(h, (m.get(h) ?? 0) + 1);
    this.byWorkspace.set(workspaceId, m);
  }

  count(workspaceId: string, chunkHash: string): number {
    return this.byWorkspace.get(workspaceId)?.get(chunkHash) ?? 0;
  }

  summary(workspaceId?: string): Record<string, { chunks: number; impressions: number }> {
    const out: Record<string, { chunks: number; impressions: number }> = {};
    for (const [ws, m] of this.byWorkspace) if (workspaceId === undefined || ws === workspaceId) out[ws] = { chunks: m.size, impressions: [...m.values()].reduce((a, b) => a + b, 0) };
    return out;
  }
}

export function createChitta(impressions: Impressions): Layer {
  return {
    id: "chitta",
    job: "Activates memories: + recency x (how recent among the candidates, 0-1) + frequency x (1 - 1/(1 + times served before)), in logit space.",
    counters: ["recency_boosted", "frequency_boosted"],
    optional: true,
    weigh(e, ctx) {
      const { recency, frequency } = ctx.params.chitta;
      const head = e.items.slice(0, headSize(e));
      const times = head.map((i) => i.chunk.authoredAt);
      const oldest = Math.min(...times);
      const span = Math.max(...times) - oldest;
      return adjustHead(e, (item) => {
        const fresh = span > 0 ? (item.chunk.authoredAt - oldest) / span : 0;
        const seen = impressions.count(e.query.workspaceId, item.chunk.chunkHash);
        const delta = recency * fresh + frequency * (1 - 1 / (1 + seen));
        if (recency * fresh > 0.01) ctx.count("recency_boosted");
        if (seen > 0 && frequency > 0) ctx.count("frequency_boosted");
        return delta > 0 ? { delta } : null;
      });
    },
    commit(e) {
      impressions.see(e.query.workspaceId, e.items.slice(0, e.need).map((i) => i.chunk.chunkHash));
    },
    inspect: (ws) => impressions.summary(ws),
  };
}
