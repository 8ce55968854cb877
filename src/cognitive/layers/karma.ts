// karma (action and its fruit): outcome feedback. Chunks callers reported as used rise; chunks reported as unhelpful sink.
import { adjustHead } from "../evidence.ts";
import type { Layer } from "../types.ts";

/** Per workspace, per chunk hash: net outcomes (used minus unhelpful). Bounded: the oldest workspace map is cleared past the cap. */
export class KarmaLedger {
  private readonly byWorkspace = new Map<string, Map<string, number>>();

  constructor(private readonly cap = 100_000) {}

  /** Records that a caller used (true) or rejected (false) these citations. */
  record(workspaceId: string, chunkHashes: readonly string[], used: boolean): void {
    const m = this.byWorkspace.get(workspaceId) ?? new Map<string, number>();
    if (m.size >= this.cap) m.clear();
    for (const h of chunkHashes) m.set(h, (m.get(h) ?? 0) + (used ? 1 : -1));
    this.byWorkspace.set(workspaceId, m);
  }

  net(workspaceId: string, chunkHash: string): number {
    return this.byWorkspace.get(workspaceId)?.get(chunkHash) ?? 0;
  }

  /** Outcomes recorded per workspace (inspection). */
  summary(workspaceId?: string): Record<string, { chunks: number; net: number }> {
    const out: Record<string, { chunks: number; net: number }> = {};
    for (const [ws, m] of this.byWorkspace) if (workspaceId === undefined || ws === workspaceId) out[ws] = { chunks: m.size, net: [...m.values()].reduce((a, b) => a + b, 0) };
    return out;
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
        const net = ledger.net(e.query.workspaceId, item.chunk.chunkHash);
        if (net === 0) return null;
        ctx.count(net > 0 ? "chunks_boosted_feedback" : "chunks_demoted_feedback");
        return { delta: w * Math.tanh(net / 2), flag: net > 0 ? "used" : "unhelpful" };
      });
    },
    inspect: (ws) => ledger.summary(ws),
  };
}
