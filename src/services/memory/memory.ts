// The core Memory API: recall, forget and pack over the workspace vault (ingest lives in ingest.ts).
import { AppError } from "../../contract/errors.ts";
import type {
  ForgetRequest,
  ForgetResponse,
  PackRequest,
  PackResponse,
  RecallRequest,
  RecallResponse,
  SourceRequest,
  SourceResponse,
} from "../../contract/memory.ts";
import { PackRequest as PackRequestSchema, RecallRequest as RecallRequestSchema } from "../../contract/memory.ts";
import { localPlanner, type Planner } from "../planning/planner.ts";
import { timeNotes, toFilter } from "./time-filter.ts";
import { askedAt } from "./asked-at.ts";
import type { SupersessionReader } from "./prefer-current.ts";
import { rankMemory, type MemorySources } from "./rank-memory.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import type { Evidence } from "../../cognitive/types.ts";
import type { LayerSwitches } from "../../cognitive/params.ts";
import type { CognitivePipeline, Found } from "../../cognitive/pipeline.ts";
import { citationOf } from "./citations.ts";
import { draftEvent } from "../audit/audit.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { Retriever } from "../../search/retriever.ts";
import { yieldToIo } from "../../threads/loop-yield.ts";

/** Per-call options beside the request: who calls (ahamkara) and per-request layer switches. */
export interface ThinkOptions {
  call?: CallContext | undefined;
  layers?: LayerSwitches | undefined;
  /** Think without learning or counting (the feedback tuner's replays must not change what they measure). */
  dry?: boolean | undefined;
}

export class MemoryService {
  constructor(
    private readonly store: Pick<
      DocumentStore,
      "forgetSource" | "forgetChunkHash" | "wasForgotten" | "getDocument" | "documentChunks"
    >,
    /** Where replacements of knowledge records are read, so recall prefers what is current. */
    private readonly supersessions: SupersessionReader,
    private readonly retriever: Retriever,
    private readonly clock: Clock,
    private readonly cognition: CognitivePipeline,
    /** Where the pack's summaries are computed (the serving process: a worker thread). */
    private readonly planner: Planner = localPlanner(),
  ) {}

  private get sources(): MemorySources {
    return { retriever: this.retriever, supersessions: this.supersessions };
  }

  async recall(workspaceId: string, input: RecallRequest, opts: ThinkOptions = {}): Promise<RecallResponse> {
    const started = performance.now();
    const req = RecallRequestSchema.parse(input);
    const minScore = req.filters?.min_score ?? 0;
    const thought = this.cognition.perceive(
      {
        op: "recall",
        workspaceId,
        actorId: opts.call?.actorId ?? null,
        query: req.query,
        mode: req.mode,
        k: req.k,
        filter: toFilter(req.filters),
      },
      opts.layers,
    );
    // Over-fetch so collapsing identical texts and min_score still leave k hits.
    const query = this.cognition.retrievalQuery(thought, req.k * 2);
    const weighing = { need: req.k, diversity: 0 };
    const asked = askedAt(req.asked_at, this.clock.now());
    const candidates = async (rows: number) => {
      const current = await rankMemory(this.sources, query, req.query, {
        rows,
        filters: req.filters,
        askedAt: asked,
        yields: opts.call?.yieldsToRequests,
      });
      return { found: distinctTexts(current.found), marks: current.marks };
    };
    // Rows for the head the layers weigh (2k) and k more for what their demotions bring up; for all only when that fell short.
    let { found, marks } = await candidates(req.k * 3);
    let evidence = this.cognition.weighHead(thought, found, weighing);
    if (!evidence) {
      ({ found, marks } = await candidates(Infinity));
      evidence = this.cognition.weigh(thought, found, weighing);
    }
    const picked = evidence.items.filter((item) => item.score >= minScore).slice(0, req.k);
    if (!opts.dry) this.cognition.commit(thought, opts.call?.onCounter);
    const now = this.clock.now();
    return {
      query: req.query,
      mode: req.mode,
      hits: picked.map((item) => ({ ...citationOf(item.chunk, item.score, now), ...marks.get(item.chunk.id) })),
      ...(req.explain ? { explain: picked.map(explainOf) } : {}),
      ...timeNotes(req.filters, now, { text: req.query, asked }),
      took_ms: Number((performance.now() - started).toFixed(3)),
    };
  }

  /** With `call`, a memory.forget audit event is written in the same transaction as the removal. */
  async forget(workspaceId: string, req: ForgetRequest, call?: CallContext): Promise<ForgetResponse> {
    const now = this.clock.now().getTime();
    const byPath = "source_path" in req;
    const audit =
      call &&
      draftEvent(
        call,
        "memory.forget",
        byPath ? { source_path: req.source_path, chunk_hash: null } : { source_path: null, chunk_hash: req.chunk_hash },
        now,
      );
    const removed = byPath
      ? await this.store.forgetSource(workspaceId, req.source_path, now, audit)
      : await this.store.forgetChunkHash(workspaceId, req.chunk_hash, now, audit);
    if (
      removed.length === 0 &&
      !(await this.store.wasForgotten(
        workspaceId,
        byPath ? { sourcePath: req.source_path } : { chunkHash: req.chunk_hash },
      ))
    )
      throw new AppError(
        "not_found",
        byPath ? `no source '${req.source_path}' in this workspace` : `no chunk ${req.chunk_hash} in this workspace`,
      );
    // The removal is committed: a snapshot that could not be deleted is replaced at the next save, the forget stands.
    if (removed.length > 0) await this.retriever.dropSnapshot(workspaceId).catch(() => {});
    const removedSources = [];
    for (const path of new Set(removed.map((r) => r.sourcePath)))
      if (!(await this.store.getDocument(workspaceId, path))) removedSources.push(path);
    return {
      removed: removed.map((r) => ({ chunk_hash: r.chunkHash, anchor: r.anchor, source_path: r.sourcePath })),
      removed_sources: removedSources,
      already_forgotten: removed.length === 0,
    };
  }

  async source(workspaceId: string, req: SourceRequest): Promise<SourceResponse> {
    const doc = await this.store.getDocument(workspaceId, req.source_path);
    if (!doc) throw new AppError("not_found", `no source '${req.source_path}' in this workspace`);
    const chunks = await this.store.documentChunks(workspaceId, req.source_path);
    return {
      source_path: doc.sourcePath,
      document_hash: doc.documentHash,
      kind: doc.kind,
      ingested_at: new Date(doc.ingestedAt).toISOString(),
      occurred_at: new Date(doc.authoredAt).toISOString(),
      content: doc.content,
      chunks: chunks.map((c) => ({ chunk_hash: c.chunkHash, anchor: c.anchor, start: c.start, end: c.end })),
    };
  }

  async pack(workspaceId: string, input: PackRequest, opts: ThinkOptions = {}): Promise<PackResponse> {
    const req = PackRequestSchema.parse(input);
    const pool = Math.min(200, req.max_items * 5);
    const thought = this.cognition.perceive(
      {
        op: "pack",
        workspaceId,
        actorId: opts.call?.actorId ?? null,
        query: req.intent,
        mode: "hybrid",
        k: pool,
        filter: toFilter(req.filters),
      },
      opts.layers,
    );
    const asked = askedAt(req.asked_at, this.clock.now());
    const { found, marks } = await rankMemory(this.sources, this.cognition.retrievalQuery(thought, pool), req.intent, {
      rows: Infinity,
      filters: req.filters,
      askedAt: asked,
      yields: opts.call?.yieldsToRequests,
    });
    await yieldToIo(); // the pool's weighing and planning is a slice of its own
    // dhyana orders (MMR) and viveka drops near-duplicates before the budget is spent.
    const evidence = this.cognition.weigh(thought, found, { need: req.max_items * 2, diversity: req.diversity });
    this.cognition.commit(thought, opts.call?.onCounter);
    const kept = evidence.items.filter((item) => item.score >= (req.filters?.min_score ?? 0));
    const plan = await this.planner.pack(
      kept.map(({ chunk, score }) => ({
        chunk,
        sourcePath: chunk.sourcePath,
        start: chunk.start,
        text: chunk.text,
        relevance: score,
      })),
      { budgetTokens: req.budget_tokens, maxItems: req.max_items, intent: req.intent },
    );
    const now = this.clock.now();
    return {
      intent: req.intent,
      budget_tokens: req.budget_tokens,
      used_tokens: plan.usedTokens,
      items: plan.items.map(({ candidate, tokens }) => ({
        citation: { ...citationOf(candidate.chunk, candidate.relevance, now), ...marks.get(candidate.chunk.id) },
        tokens,
      })),
      sources: plan.summaries.map((s) => ({
        source_path: s.sourcePath,
        summary: s.text,
        citation: citationOf(s.candidate.chunk, s.candidate.relevance, now, s.span),
      })),
      dropped: { near_duplicates: evidence.droppedDuplicates, over_budget: plan.dropped.overBudget },
      ...timeNotes(req.filters, now, { text: req.intent, asked }),
    };
  }
}

/** The retrieval signals; when layers moved the score, their logit change is the `layers` contribution. */
function explainOf({ candidate: c, score }: Evidence) {
  const round = (x: number) => Number(x.toFixed(6));
  const layers = score === c.score ? 0 : logit(score) - logit(c.score);
  const contributions = layers === 0 ? c.contributions : { ...c.contributions, layers };
  return {
    bm25: round(c.bm25),
    lexical: round(c.lexical),
    lexical_rank: c.lexicalRank,
    dense: c.dense === null ? null : round(c.dense),
    dense_rank: c.denseRank,
    contributions: Object.fromEntries(Object.entries(contributions).map(([k, v]) => [k, round(v)])),
    score: round(score),
  };
}

const logit = (p: number) => Math.log(p / (1 - p));

/** Identical texts collapse into the first-ingested copy (the contract's rule) before any layer weighs them. */
function distinctTexts(found: Found): Found {
  const seen = new Set<string>();
  return {
    ...found,
    candidates: found.candidates.filter(
      (c) => !seen.has(found.chunks.get(c.id)!.chunkHash) && seen.add(found.chunks.get(c.id)!.chunkHash),
    ),
  };
}
