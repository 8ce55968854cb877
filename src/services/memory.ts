// The core Memory API: recall, forget and pack over the workspace vault (ingest lives in ingest.ts).
import { AppError } from "../contract/errors.ts";
import type { ForgetRequest, ForgetResponse, PackRequest, PackResponse, RecallFilters, RecallRequest, RecallResponse } from "../contract/memory.ts";
import { PackRequest as PackRequestSchema, RecallRequest as RecallRequestSchema } from "../contract/memory.ts";
import { planPack } from "../domain/pack.ts";
import { tokenize } from "../domain/tokenize.ts";
import type { ChunkFilter, ChunkRecord, Clock, Store } from "../ports.ts";
import { citationOf } from "./citations.ts";
import { draftEvent } from "./audit.ts";
import type { CallContext } from "./context.ts";
import type { Candidate, Retriever } from "./retriever.ts";

export class MemoryService {
  constructor(
    private readonly store: Store,
    private readonly retriever: Retriever,
    private readonly clock: Clock,
  ) {}

  async recall(workspaceId: string, input: RecallRequest): Promise<RecallResponse> {
    const started = performance.now();
    const req = RecallRequestSchema.parse(input);
    const minScore = req.filters?.min_score ?? 0;
    // Over-fetch so collapsing identical texts and min_score still leave k hits.
    const { candidates, chunks: byId } = await this.retriever.retrieveChunks({ workspaceId, query: req.query, k: req.k * 2, mode: req.mode, filter: toFilter(req.filters) });
    const seen = new Set<string>();
    const picked: { chunk: ChunkRecord; candidate: Candidate }[] = [];
    for (const candidate of candidates) {
      const chunk = byId.get(candidate.id);
      if (!chunk || seen.has(chunk.chunkHash) || candidate.score < minScore) continue;
      seen.add(chunk.chunkHash);
      picked.push({ chunk, candidate });
      if (picked.length === req.k) break;
    }
    const now = this.clock.now();
    return {
      query: req.query,
      mode: req.mode,
      hits: picked.map(({ chunk, candidate }) => citationOf(chunk, candidate.score, now)),
      ...(req.explain ? { explain: picked.map(({ candidate }) => explainOf(candidate)) } : {}),
      took_ms: Number((performance.now() - started).toFixed(3)),
    };
  }

  /** With `call`, a memory.forget audit event is written in the same transaction as the removal. */
  forget(workspaceId: string, req: ForgetRequest, call?: CallContext): ForgetResponse {
    const now = this.clock.now().getTime();
    const byPath = "source_path" in req;
    const audit = call && draftEvent(call, "memory.forget", byPath ? { source_path: req.source_path, chunk_hash: null } : { source_path: null, chunk_hash: req.chunk_hash }, now);
    const removed = byPath ? this.store.forgetSource(workspaceId, req.source_path, now, audit) : this.store.forgetChunkHash(workspaceId, req.chunk_hash, now, audit);
    if (removed.length === 0 && !this.store.wasForgotten(workspaceId, byPath ? { sourcePath: req.source_path } : { chunkHash: req.chunk_hash }))
      throw new AppError("not_found", byPath ? `no source '${req.source_path}' in this workspace` : `no chunk ${req.chunk_hash} in this workspace`);
    const removedSources = [...new Set(removed.map((r) => r.sourcePath))].filter((p) => !this.store.getDocument(workspaceId, p));
    return {
      removed: removed.map((r) => ({ chunk_hash: r.chunkHash, anchor: r.anchor, source_path: r.sourcePath })),
      removed_sources: removedSources,
      already_forgotten: removed.length === 0,
    };
  }

  async pack(workspaceId: string, input: PackRequest): Promise<PackResponse> {
    const req = PackRequestSchema.parse(input);
    const pool = Math.min(200, req.max_items * 5);
    const { candidates, chunks } = await this.retriever.retrieveChunks({ workspaceId, query: req.intent, k: pool, mode: "hybrid", filter: toFilter(req.filters) });
    const kept = candidates.filter((c) => c.score >= (req.filters?.min_score ?? 0));
    const scoreOf = new Map(kept.map((c) => [c.id, c.score]));
    const plan = planPack(
      kept.map((c) => chunks.get(c.id)!).map((chunk) => ({
        chunk,
        sourcePath: chunk.sourcePath,
        start: chunk.start,
        text: chunk.text,
        relevance: scoreOf.get(chunk.id) ?? 0,
        terms: new Set(tokenize(chunk.text)),
      })),
      { budgetTokens: req.budget_tokens, maxItems: req.max_items, diversity: req.diversity, intent: req.intent },
    );
    const now = this.clock.now();
    return {
      intent: req.intent,
      budget_tokens: req.budget_tokens,
      used_tokens: plan.usedTokens,
      items: plan.items.map(({ candidate, tokens }) => ({ citation: citationOf(candidate.chunk, candidate.relevance, now), tokens })),
      sources: plan.summaries.map((s) => ({ source_path: s.sourcePath, summary: s.text, citation: citationOf(s.candidate.chunk, s.candidate.relevance, now, s.span) })),
      dropped: { near_duplicates: plan.dropped.nearDuplicates, over_budget: plan.dropped.overBudget },
    };
  }
}

export function toFilter(filters: RecallFilters | undefined): ChunkFilter {
  return {
    sourcePathPrefix: filters?.source_path_prefix,
    since: filters?.since ? Date.parse(filters.since) : undefined,
    until: filters?.until ? Date.parse(filters.until) : undefined,
  };
}

function explainOf(c: Candidate) {
  const round = (x: number) => Number(x.toFixed(6));
  return {
    bm25: round(c.bm25),
    lexical: round(c.lexical),
    lexical_rank: c.lexicalRank,
    dense: c.dense === null ? null : round(c.dense),
    dense_rank: c.denseRank,
    contributions: Object.fromEntries(Object.entries(c.contributions).map(([k, v]) => [k, round(v)])),
    score: round(c.score),
  };
}
