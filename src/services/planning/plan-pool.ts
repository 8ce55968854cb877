// Answer and pack plans on worker threads (src/threads/pool.ts): a grounded answer's sentence and span scoring (~10 ms at
// 8 chunks) and a pack's summaries no longer hold the loop that answers other requests. A worker costs ~110 MB while
// it lives (GloVe's word index and the POS tagger's model) and takes ~0.6 s to start: it stays through the pauses of a
// conversation and exits after IDLE_MS without a plan.
import type { AnswerPlan, EvidenceChunk } from "../../domain/answering/answer.ts";
import type { PackCandidate, PackPlan } from "../../domain/retrieval/pack.ts";
import type { PortableEmbedder } from "../../ports/embedding.ts";
import { ThreadPool, threadModule } from "../../threads/pool.ts";
import type { PackOptions, Planner } from "./planner.ts";

/** What crosses to the thread of a pack candidate: the fields planPack reads, and its index to map the plan back. */
interface WireCandidate extends PackCandidate {
  index: number;
}

/** The word knowledge a thread rebuilds: the embedder with word similarity (null: none), the tagger's and the name reader's module exports. */
export interface PortableLanguage {
  words: PortableEmbedder | null;
  tagger: { module: string; name: string } | null;
  names: { module: string; name: string } | null;
}

export type PlanRequest =
  | { kind: "answer"; question: string; chunks: EvidenceChunk[]; keep: number }
  | { kind: "pack"; candidates: WireCandidate[]; opts: PackOptions };
export type PlanReply = { kind: "answer"; plan: AnswerPlan } | { kind: "pack"; plan: PackPlan<WireCandidate> };

/** A chat's next question rarely comes 10 minutes later; an idle service gives the memory back after that. */
const IDLE_MS = 10 * 60_000;

export class PlanPool implements Planner {
  private readonly threads: ThreadPool<PlanRequest, PlanReply>;

  constructor(size: number, language: PortableLanguage, idleMs = IDLE_MS) {
    this.threads = new ThreadPool(threadModule("plan-thread", import.meta.url), language, size, idleMs);
  }

  get running(): number {
    return this.threads.running;
  }

  async answer(question: string, chunks: readonly EvidenceChunk[], keep: number): Promise<AnswerPlan> {
    const reply = await this.threads.run({
      kind: "answer",
      question,
      chunks: chunks.map(({ key, text, score }) => ({ key, text, score })),
      keep,
    });
    if (reply.kind !== "answer") throw new Error("planning thread answered another request");
    return reply.plan;
  }

  async pack<T extends PackCandidate>(candidates: readonly T[], opts: PackOptions): Promise<PackPlan<T>> {
    const wire = candidates.map(({ sourcePath, start, text, relevance }, index) => ({
      index,
      sourcePath,
      start,
      text,
      relevance,
    }));
    const reply = await this.threads.run({ kind: "pack", candidates: wire, opts });
    if (reply.kind !== "pack") throw new Error("planning thread answered another request");
    const { plan } = reply;
    const own = (c: WireCandidate) => candidates[c.index]!;
    return {
      items: plan.items.map(({ candidate, tokens }) => ({ candidate: own(candidate), tokens })),
      summaries: plan.summaries.map((s) => ({ ...s, candidate: own(s.candidate) })),
      usedTokens: plan.usedTokens,
      dropped: plan.dropped,
    };
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
