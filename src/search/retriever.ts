// Candidate generation: BM25 candidates (plus dense neighbours when configured or in vector mode), each scored on every
// signal, fused into a base logit that orders them, then calibrated against the query's other candidates.
import { calibrateQuery, fuse, keepsOrder } from "../domain/retrieval/fusion.ts";
import { tokenize } from "../domain/text/tokenize.ts";
import type { ChunkFilter, ChunkRecord, Embedder, Store } from "../ports.ts";
import type { RetrievalConfig } from "./retrieval-config.ts";

export type Mode = "hybrid" | "lexical" | "vector";

export interface Candidate {
  id: number;
  /** Calibrated P(relevant); non-increasing along the returned order. */
  score: number;
  /** Stage 1 logit; the order is by this, then by id. */
  base: number;
  bm25: number;
  lexical: number;
  lexicalRank: number | null;
  dense: number | null;
  denseRank: number | null;
  contributions: Record<string, number>;
}

export interface ExpansionTerm {
  term: string;
  weight: number;
}

export interface RetrievalQuery {
  workspaceId: string;
  query: string;
  k: number;
  mode: Mode;
  filter: ChunkFilter;
  /** Weighted extra BM25 terms (query expansion): scored like query terms times their weight, and they bring in candidates of their own. */
  expansion?: readonly ExpansionTerm[] | undefined;
  /** Multiplies the hybrid dense weight (sabha's council weights; 1 = the calibrated fusion). */
  denseScale?: number | undefined;
}

export class Retriever {
  private readonly queryVectors = new Map<string, Float32Array>();

  constructor(
    private readonly store: Store,
    private readonly embedder: Embedder | null,
    private readonly config: RetrievalConfig,
  ) {
    for (const mode of ["lexicalOnly", "vectorOnly", "hybrid"] as const)
      if (!keepsOrder(config[mode].calibration)) throw new Error(`retrieval config ${mode}: the calibration would reorder candidates (needs gap > -1, rank <= 0)`);
  }

  /** Candidates best first (by base logit; the calibrated score follows that order), with every signal kept for `explain`. */
  async retrieve(q: RetrievalQuery): Promise<Candidate[]> {
    const terms = tokenize(q.query);
    const vector = q.mode !== "lexical" ? await this.queryVector(q.query) : null;
    const pool = Math.max(q.k, this.config.candidates);
    const lexical = q.mode === "vector" ? [] : this.store.searchLexical(q.workspaceId, terms, q.mode === "lexical" || !vector ? q.k : pool, q.filter);
    const denseLeg = vector && this.embedder && (q.mode === "vector" || this.config.denseCandidates !== false);
    const dense = denseLeg ? this.store.searchDense(q.workspaceId, this.embedder!.id, vector, q.mode === "vector" ? q.k : pool, q.filter) : [];
    const maxBm25 = this.store.lexicalMaxScore(q.workspaceId, terms);
    const exp = q.expansion && q.expansion.length > 0 && q.mode !== "vector" ? q.expansion : [];
    // Expansion terms count like query terms (times their weight) on the query's BM25 scale.
    const expNorm = maxBm25 > 0 ? maxBm25 : exp.reduce((s, e) => s + e.weight * this.store.lexicalMaxScore(q.workspaceId, [e.term]), 0);
    // Their own candidates join the pool (a quarter of it): that is how a vocabulary mismatch gets bridged.
    const expansionHits = exp.length > 0 && expNorm > 0 ? this.store.searchLexical(q.workspaceId, exp.map((e) => e.term), Math.ceil(pool / 4), q.filter) : [];
    const lexRank = new Map(lexical.map((h, i) => [h.id, { rank: i + 1, score: h.score }]));
    const denseRank = new Map(dense.map((h, i) => [h.id, { rank: i + 1, score: h.score }]));
    const weights = !vector ? this.config.lexicalOnly : q.mode === "vector" ? this.config.vectorOnly : this.config.hybrid;
    const fusion = q.denseScale !== undefined && q.denseScale !== 1 ? { ...weights.fusion, dense: weights.fusion.dense * q.denseScale } : weights.fusion;
    const ids = [...new Set([...lexRank.keys(), ...denseRank.keys(), ...expansionHits.map((h) => h.id)])];
    // Every signal a candidate lacks, scored in one store call per signal (per expansion term): one index state, no per-id look-ups.
    const noBm25 = ids.filter((id) => !lexRank.has(id));
    const bm25Of = byId(noBm25, this.store.lexicalScores(q.workspaceId, terms, noBm25));
    const noDense = ids.filter((id) => !denseRank.has(id));
    const denseOf = vector && this.embedder ? byId(noDense, this.store.denseSimilarities(q.workspaceId, this.embedder.id, vector, noDense)) : new Map<number, null>();
    const expansionOf = expansionHits.length > 0 ? exp.map((x) => this.store.lexicalScores(q.workspaceId, [x.term], ids)) : [];
    const out: Candidate[] = [];
    ids.forEach((id, i) => {
      const bm25 = lexRank.get(id)?.score ?? bm25Of.get(id) ?? 0;
      const lexicalSignal = maxBm25 > 0 ? Math.min(1, bm25 / maxBm25) : 0;
      const denseSignal = vector && this.embedder ? (denseRank.get(id)?.score ?? denseOf.get(id) ?? 0) : null;
      const fused = fuse({ lexical: lexicalSignal, dense: denseSignal }, fusion);
      if (expansionHits.length > 0) {
        const e = (fusion.lexical * exp.reduce((s, x, t) => s + x.weight * expansionOf[t]![i]!, 0)) / expNorm;
        fused.contributions.expansion = e;
        fused.logit += e;
      }
      out.push({
        id,
        score: 0,
        base: fused.logit,
        bm25,
        lexical: lexicalSignal,
        lexicalRank: lexRank.get(id)?.rank ?? null,
        dense: denseSignal,
        denseRank: denseRank.get(id)?.rank ?? null,
        contributions: fused.contributions,
      });
    });
    out.sort((a, b) => b.base - a.base || a.id - b.id);
    // Stage 2 is monotone in the base logit, so the order above stands.
    const calibrated = calibrateQuery(out.map((c) => c.base), weights.calibration);
    for (let i = 0; i < out.length; i++) {
      const c = out[i]!;
      const s = calibrated[i]!;
      c.score = s.score;
      Object.assign(c.contributions, s.contributions);
    }
    return out;
  }

  /**
   * Candidates with their stored chunks. Index and rows are two reads; when another process replaced a document
   * between them some ids have no row, so the search runs once more on the index that has caught up.
   */
  async retrieveChunks(q: RetrievalQuery): Promise<{ candidates: Candidate[]; chunks: Map<number, ChunkRecord> }> {
    for (let attempt = 0; ; attempt++) {
      const candidates = await this.retrieve(q);
      const chunks = new Map(this.store.getChunks(q.workspaceId, candidates.map((c) => c.id)).map((c) => [c.id, c]));
      if (chunks.size === candidates.length || attempt === 1) return { candidates: candidates.filter((c) => chunks.has(c.id)), chunks };
    }
  }

  /** Query embeddings are cached (bounded) because agents repeat queries. */
  private async queryVector(query: string): Promise<Float32Array | null> {
    if (!this.embedder) return null;
    const cached = this.queryVectors.get(query);
    if (cached) return cached;
    try {
      const [v] = await this.embedder.embed([query]);
      if (!v) return null;
      if (this.queryVectors.size > 1000) this.queryVectors.clear();
      this.queryVectors.set(query, v);
      return v;
    } catch {
      return null; // a failing embedding service degrades recall to lexical instead of failing it
    }
  }
}

/** Scores returned in the order of the ids asked for, by id. */
function byId<T>(ids: readonly number[], scores: readonly T[]): Map<number, T> {
  return new Map(ids.map((id, i) => [id, scores[i]!]));
}
