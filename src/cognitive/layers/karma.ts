// karma (action and its fruit): outcome feedback. Chunks callers reported as used rise; chunks reported as unhelpful sink.
import { adjustHead } from "../evidence.ts";
import { ChunkTallies } from "../tallies.ts";
import type { Layer } from "../types.ts";

/** Per workspace, per chunk hash: net outcomes (used minus unhelpful). */
export class KarmaLedger extends ChunkTallies {
  /** Records that a caller used (true) or rejected (false) these citations. */
  record(workspaceId: string, chunkHashes: readonly string[], used: boolean): void {
    this.add(workspaceId, chunkHashes, used ? 1 : -1);
  }
}

export function createKarma(ledger: KarmaLedger): Layer {
  return {
    id: "karma",
    job: "Applies outcome feedback: a chunk's net reported outcomes (used minus unhelpful) move its score by weight x tanh(net / 2) in logit space.",
    counters: ["chunks_boosted_feedback", "chunks_demoted_feedback"],
    optional: true,
    weigh(e, ctx) {
      const w = ctx.params.karma.weight;
      return adjustHead(e, (item) => {
        const net = ledger.get(e.query.workspaceId, item.chunk.chunkHash);
        if (net === 0) return null;
        ctx.count(net > 0 ? "chunks_boosted_feedback" : "chunks_demoted_feedback");
        return { delta: w * Math.tanh(net / 2), flag: net > 0 ? "used" : "unhelpful" };
      });
    },
    inspect: (ws) => ledger.summary(ws),
  };
}
