// chitta (memory impressions): activation by recency among the candidates and by how often a chunk was recalled before.
import type { ImpressionIncrement } from "../../ports/cognitive.ts";
import type { CognitiveStore } from "../../ports/cognitive.ts";
import { BatchedSums } from "../batched-sums.ts";
import { adjustHead, headSize } from "../evidence.ts";
import { ChunkTallies } from "../tallies.ts";
import type { Layer } from "../types.ts";

const SEP = "\u0000";

/** How many times each chunk hash was served, per workspace; with a store, written to it in batches. */
export class Impressions extends ChunkTallies {
  private readonly unsaved: BatchedSums | null;

  constructor(store?: Pick<CognitiveStore, "addImpressions">, log?: (msg: string) => void) {
    super();
    this.unsaved = store
      ? new BatchedSums(
          (batch) =>
            store.addImpressions(
              [...batch].map(([key, n]) => ({
                workspaceId: key.slice(0, key.indexOf(SEP)),
                chunkHash: key.slice(key.indexOf(SEP) + 1),
                n,
              })),
            ),
          "chitta impressions",
          log,
        )
      : null;
  }

  /** Takes back the counts an earlier run wrote (at start). */
  restore(rows: readonly ImpressionIncrement[]): void {
    for (const r of rows) this.add(r.workspaceId, [r.chunkHash], r.n);
  }

  see(workspaceId: string, chunkHashes: readonly string[]): void {
    this.add(workspaceId, chunkHashes, 1);
    for (const h of chunkHashes) this.unsaved?.add(workspaceId + SEP + h, 1);
  }

  startFlushing(ms?: number): void {
    this.unsaved?.startFlushing(ms);
  }

  /** Writes what is pending (and stops the timer). */
  async stop(): Promise<void> {
    await this.unsaved?.stop();
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
      impressions.see(
        e.query.workspaceId,
        e.items.slice(0, e.need).map((i) => i.chunk.chunkHash),
      );
    },
    inspect: (ws) => impressions.summary(ws),
  };
}
