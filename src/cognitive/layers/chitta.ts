// chitta (memory impressions): activation by recency among the candidates and by how often a chunk was recalled before.
import { adjustHead, headSize } from "../evidence.ts";
import { ChunkTallies } from "../tallies.ts";
import type { Layer } from "../types.ts";

/** How many times each chunk hash was served, per workspace. */
export class Impressions extends ChunkTallies {
  see(workspaceId: string, chunkHashes: readonly string[]): void {
    this.add(workspaceId, chunkHashes, 1);
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
        const seen = impressions.get(e.query.workspaceId, item.chunk.chunkHash);
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
