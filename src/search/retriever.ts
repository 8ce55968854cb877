// Candidate generation: BM25 candidates (plus dense neighbours when configured or in vector mode), each scored on every
// signal, fused into a base logit that orders them, then calibrated against the query's other candidates.
import { calibrateQuery, fuse, type QueryCalibration } from "../domain/retrieval/fusion.ts";
import { tokenize } from "../domain/text/tokenize.ts";
import type { ChunkRecord, DocumentStore } from "../ports/documents.ts";
import type { Embedder, WordNeighbours } from "../ports/embedding.ts";
import type { SearchEngine } from "./engine.ts";
import { checkRetrievalConfig, fixedDense, type DenseSource, type RetrievalConfig } from "./retrieval-config.ts";
import { weighConversation } from "./conversation.ts";
import { yieldToIo } from "../threads/loop-yield.ts";
import { LIFTED_ROWS, type BaseLift, type Candidate, type RetrievalQuery } from "./types.ts";

export class Retriever {
  private readonly queryVectors = new Map<string, Float32Array>();

  private readonly dense: DenseSource;

  /** `dense`: an embedder with `config`, or a source whose model can change (an embedder switch hands over). */
  constructor(
    private readonly search: SearchEngine,
    private readonly documents: Pick<DocumentStore, "getChunks">,
    dense: Embedder | null | DenseSource,
    config: RetrievalConfig,
  ) {
    checkRetrievalConfig(config);
    this.dense = dense !== null && "current" in dense ? dense : fixedDense(dense, config);
  }

  /** Candidates best first (by base logit; the calibrated score follows that order), with every signal kept for `explain`. */
  async retrieve(q: RetrievalQuery): Promise<Candidate[]> {
    const { candidates, calibration } = await this.rank(q);
    return calibrate(candidates, calibration);
  }

  /** Stage 1: the candidates ordered by base logit (scores still 0), and the stage 2 weights of the query's mode. */
  private async rank(q: RetrievalQuery): Promise<{ candidates: Candidate[]; calibration: QueryCalibration }> {
    // One model for the whole query: a handover between its steps must not mix two embedders' vectors.
    const { embedder, config } = this.dense.current();
    const terms = tokenize(q.query);
    const vector = q.mode !== "lexical" && embedder ? await this.queryVector(embedder, q.query) : null;
    const pool = Math.max(q.k, config.candidates);
    const exp = q.expansion && q.expansion.length > 0 && q.mode !== "vector" ? q.expansion : [];
    const denseLeg = vector && (q.mode === "vector" || config.denseCandidates !== false);
    const lexicon = embedder && "neighbours" in embedder ? (embedder as Embedder & WordNeighbours) : null;
    const softTerms = q.mode === "hybrid" && lexicon ? config.softTerms : undefined;

    const found = await this.search.search({
      workspaceId: q.workspaceId,
      terms,
      lexicalK: q.mode === "vector" ? 0 : q.mode === "lexical" || !vector ? q.k : pool,
      dense:
        vector && embedder
          ? { embedderId: embedder.id, vector, k: denseLeg ? (q.mode === "vector" ? q.k : pool) : 0 }
          : null,
      // Their own candidates join the pool (a quarter of it): that is how a vocabulary mismatch gets bridged.
      expansion: exp.length > 0 ? { terms: exp.map((e) => e.term), k: Math.ceil(pool / 4) } : null,
      threads: q.mode === "hybrid" && config.threads ? config.threads : null,
      sessions: q.mode === "hybrid" && config.threads && config.sessions ? config.threads : null,
      soft: softTerms ? { query: q.query, lexicon: lexicon!, config: softTerms } : null,
      filter: q.filter,
    });
    const maxBm25 = found.maxBm25;
    // Expansion terms count like query terms (times their weight) on the query's BM25 scale.
    const expNorm = maxBm25 > 0 ? maxBm25 : exp.reduce((s, e, t) => s + e.weight * found.expansionMax[t]!, 0);
    const weights = !vector ? config.lexicalOnly : q.mode === "vector" ? config.vectorOnly : config.hybrid;
    const fusion =
      q.denseScale !== undefined && q.denseScale !== 1
        ? { ...weights.fusion, dense: weights.fusion.dense * q.denseScale }
        : weights.fusion;
    const out: Candidate[] = found.hits.map((hit) => {
      const lexicalSignal = maxBm25 > 0 ? Math.min(1, hit.bm25 / maxBm25) : 0;
      const denseSignal = vector ? (hit.dense ?? 0) : null;
      const fused = fuse({ lexical: lexicalSignal, dense: denseSignal }, fusion);
      if (hit.expansion.length > 0 && expNorm > 0) {
        const e = (fusion.lexical * exp.reduce((s, x, t) => s + x.weight * hit.expansion[t]!, 0)) / expNorm;
        fused.contributions.expansion = e;
        fused.logit += e;
      }
      const softNorm = maxBm25 > 0 ? maxBm25 : found.softMax;
      if (softTerms && hit.soft > 0 && softNorm > 0) {
        const s = (softTerms.weight * fusion.lexical * hit.soft) / softNorm;
        fused.contributions.soft = s;
        fused.logit += s;
      }
      return {
        id: hit.id,
        score: 0,
        base: fused.logit,
        bm25: hit.bm25,
        lexical: lexicalSignal,
        lexicalRank: hit.lexicalRank,
        dense: denseSignal,
        denseRank: hit.denseRank,
        contributions: fused.contributions,
        terms: hit.terms,
        ...(hit.neighbours.length > 0 ? { neighbours: hit.neighbours } : {}),
        ...(hit.speaker !== null ? { speaker: hit.speaker } : {}),
        ...(hit.session !== null ? { session: hit.session } : {}),
      };
    });
    if (q.mode === "hybrid") weighConversation(out, new Set(terms), config);
    out.sort(byBase);
    return { candidates: out, calibration: weights.calibration };
  }

  /**
   * Candidates with their stored chunks: all of them, or with `rows` only the best `rows` (and `floor`, the best score
   * of those left out). Index and rows are two reads; when another process replaced a document between them some ids
   * have no row, so the search runs once more on the index that has caught up. `yields`: the loop serves waiting
   * requests before each read. `lifts`: rules that read the best rows (LIFTED_ROWS at least, whatever `rows` is) and
   * move their base logits before stage 2, in turn; the best `rows` of them are returned, and `floor` the best score
   * of the others, wherever the lifts moved them.
   */
  async retrieveChunks(
    q: RetrievalQuery,
    rows = Infinity,
    opts: { yields?: boolean | undefined; lifts?: readonly BaseLift[] | undefined } = {},
  ): Promise<{ candidates: Candidate[]; chunks: Map<number, ChunkRecord>; floor?: number }> {
    const queryLifts = this.dense.current().config.queryLifts !== false;
    const lifts = (opts.lifts ?? []).filter((l) => queryLifts || l.always);
    // A query's lift reads as many candidates whatever k and rows ask (a lexical pool of k could not hold what it
    // would lift); a rule of what memory holds (`always`) reads the rows read anyway, so a plain recall reads no more.
    const widen = lifts.some((l) => !l.always);
    const pooled = widen && q.k < LIFTED_ROWS ? { ...q, k: LIFTED_ROWS } : q;
    const reading = widen ? Math.max(rows, LIFTED_ROWS) : rows;
    for (let attempt = 0; ; attempt++) {
      if (opts.yields) await yieldToIo();
      const ranked = await this.rank(pooled);
      if (opts.yields) await yieldToIo();
      const head = ranked.candidates.length > reading ? ranked.candidates.slice(0, reading) : ranked.candidates;
      const chunks = new Map(
        (
          await this.documents.getChunks(
            q.workspaceId,
            head.map((c) => c.id),
          )
        ).map((c) => [c.id, c]),
      );
      if (chunks.size < head.length && attempt === 0) continue;
      const read = head.filter((c) => chunks.has(c.id));
      for (const lift of lifts) if (await liftBases(read, chunks, lift)) read.sort(byBase);
      if (lifts.length) ranked.candidates.sort(byBase);
      const all = calibrate(ranked.candidates, ranked.calibration);
      const kept = read.length > rows ? read.slice(0, rows) : read;
      if (kept.length === read.length && head.length === all.length) return { candidates: kept, chunks };
      // The others: what was not read, and what the lifts read beyond `rows` (a row gone meanwhile is none).
      const passed = new Set([...kept, ...head.filter((c) => !chunks.has(c.id))].map((c) => c.id));
      return { candidates: kept, chunks, floor: all.find((c) => !passed.has(c.id))!.score };
    }
  }

  /** Deletes the workspace's saved index snapshot, so a forget leaves nothing of what it removed on disk there. */
  dropSnapshot(workspaceId: string): Promise<void> {
    return this.search.dropSnapshot(workspaceId);
  }

  /** Query embeddings are cached (bounded) because agents repeat queries. */
  private async queryVector(embedder: Embedder, query: string): Promise<Float32Array | null> {
    const key = `${embedder.id}\n${query}`;
    const cached = this.queryVectors.get(key);
    if (cached) return cached;
    try {
      const [v] = await embedder.embed([query]);
      if (!v) return null;
      if (this.queryVectors.size > 1000) this.queryVectors.clear();
      this.queryVectors.set(key, v);
      return v;
    } catch {
      return null; // a failing embedding service degrades recall to lexical instead of failing it
    }
  }
}

const byBase = (a: Candidate, b: Candidate) => b.base - a.base || a.id - b.id;

/** Stage 2 over candidates sorted by base logit: it is monotone in the base logit, so their order stands. */
function calibrate(candidates: Candidate[], calibration: QueryCalibration): Candidate[] {
  const calibrated = calibrateQuery(
    candidates.map((c) => c.base),
    calibration,
  );
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const s = calibrated[i]!;
    c.score = s.score;
    Object.assign(c.contributions, s.contributions);
  }
  return candidates;
}

/** Adds the lift's logits to the rows' bases (and contributions); true when any moved. */
async function liftBases(
  rows: Candidate[],
  chunks: ReadonlyMap<number, ChunkRecord>,
  lift: BaseLift,
): Promise<boolean> {
  const deltas = await lift.deltas(
    rows.map((c) => ({ chunk: chunks.get(c.id)!, base: c.base, contributions: c.contributions })),
  );
  let moved = false;
  rows.forEach((c, i) => {
    const delta = deltas[i] ?? 0;
    if (delta === 0) return;
    c.base += delta;
    c.contributions[lift.term] = (c.contributions[lift.term] ?? 0) + delta;
    moved = true;
  });
  return moved;
}
