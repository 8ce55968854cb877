// The one coarse search call: everything a recall scores, read from one index state without awaiting anything.
import type { WordNeighbours } from "../ports/embedding.ts";
import type { SoftScorer } from "./bm25.ts";
import { softGroups, type SoftTermConfig } from "./soft-terms.ts";
import type { VectorIndex } from "./vector-index.ts";
import type { WorkspaceIndex } from "./workspace-index.ts";
import type { ChunkFilter } from "./types.ts";

export interface SearchRequest {
  workspaceId: string;
  /** The query's BM25 terms. */
  terms: readonly string[];
  /** BM25 hits to collect; 0 skips the lexical leg (every candidate still gets its BM25). */
  lexicalK: number;
  /** The dense signal: every candidate's cosine with `vector`; its own top `k` join the candidates when k > 0. */
  dense: { embedderId: string; vector: Float32Array; k: number } | null;
  /** Expansion terms: their top `k` hits join the candidates and every candidate gets each term's BM25 (only when they hit). */
  expansion: { terms: readonly string[]; k: number } | null;
  /** Thread neighbours (WorkspaceIndex.threadNeighbours) of the first `hits` lexical hits join the candidates; hits name theirs. */
  threads?: { windowMs: number; hits: number } | null | undefined;
  /** Each hit's session (WorkspaceIndex.sessionOf) with this window; absent = not looked up. */
  sessions?: { windowMs: number } | null | undefined;
  /** Soft term matching (Bm25Index.softScorer): its top `k` join the candidates and every candidate gets its score. */
  soft?: { query: string; lexicon: WordNeighbours; config: SoftTermConfig } | null | undefined;
  filter: ChunkFilter;
}

/** One candidate with every raw signal; ranks are 1-based within their leg, null when the leg did not return it. */
export interface SearchHit {
  id: number;
  bm25: number;
  lexicalRank: number | null;
  /** Cosine with the query vector; null without a dense signal or when the chunk has no vector. */
  dense: number | null;
  denseRank: number | null;
  /** BM25 of each expansion term, in the request's order (empty when the expansion terms hit nothing). */
  expansion: readonly number[];
  /** Its distinct term ids, ascending, in this index's numbering (what near-duplicate checks compare). */
  terms: Int32Array;
  /** Ids of the turns written just before and after it in its conversation (only with `threads`; else empty). */
  neighbours: readonly number[];
  /** Its soft-match score (0 without `soft`). */
  soft: number;
  /** With `threads`: who speaks it when it is a named turn of a conversation, as a query term ("bob" of "Bob Lee: ..."). */
  speaker: string | null;
  /** With `sessions`: the id of the first turn of its session when it is a conversation turn; else null. */
  session: number | null;
}

export interface SearchResult {
  /** Lexical hits first (best first), then dense-only, then expansion-only candidates. */
  hits: SearchHit[];
  /** The best BM25 any chunk could get for the query's terms (the lexical signal's scale). */
  maxBm25: number;
  /** The same for each expansion term alone. */
  expansionMax: number[];
  /** The best soft-match score any chunk could get (0 without `soft`). */
  softMax: number;
}

/** What a hit without expansion terms or thread neighbours shares (one empty list, not one per hit). */
const NONE: readonly number[] = Object.freeze([]);

/** Runs the request over a current index (and its vector index when the request is dense). */
export function runSearch(index: WorkspaceIndex, vectors: VectorIndex | null, req: SearchRequest): SearchResult {
  const accept = index.accept(req.filter);
  const lexical = req.lexicalK > 0 ? index.bm25.search(req.terms, req.lexicalK, accept) : [];
  const dense = req.dense && vectors && req.dense.k > 0 ? vectors.search(req.dense.vector, req.dense.k, accept) : [];
  const expTerms = req.expansion?.terms ?? [];
  const expansionHits = expTerms.length > 0 ? index.bm25.search(expTerms, req.expansion!.k, accept) : [];
  const soft = req.soft ? softScorer(index, req.soft) : null;
  const softHits = soft && req.soft!.config.k > 0 ? soft.top(req.soft!.config.k, accept) : [];
  const lexRank = new Map(lexical.map((h, i) => [h.id, { rank: i + 1, score: h.score }]));
  const denseRank = new Map(dense.map((h, i) => [h.id, { rank: i + 1, score: h.score }]));
  // Every leg's ids in that order, each once, then the thread neighbours (one set: the order the legs give).
  const ids = new Set(lexRank.keys());
  for (const h of dense) ids.add(h.id);
  for (const h of expansionHits) ids.add(h.id);
  for (const h of softHits) ids.add(h.id);
  const neighbours = new Map<number, number[]>();
  // Only the best lexical hits' neighbours: a neighbour is lifted below its hit, so a weak hit's cannot reach the top.
  if (req.threads)
    for (const { id } of lexical.slice(0, req.threads.hits))
      neighbours.set(
        id,
        index.threadNeighbours(id, req.threads.windowMs).filter((n) => !accept || accept(n)),
      );
  for (const list of neighbours.values()) for (const n of list) ids.add(n);
  const query = req.dense?.vector;
  const bm25Of = index.bm25.scorer(req.terms);
  const expansionOf = expansionHits.length > 0 ? expTerms.map((t) => index.bm25.scorer([t])) : [];
  const hits = Array.from(ids, (id): SearchHit => {
    const lex = lexRank.get(id);
    const den = denseRank.get(id);
    return {
      id,
      bm25: lex?.score ?? bm25Of(id),
      lexicalRank: lex?.rank ?? null,
      dense: den?.score ?? (query && vectors ? vectors.similarity(query, id) : null),
      denseRank: den?.rank ?? null,
      expansion: expansionOf.length > 0 ? expansionOf.map((score) => score(id)) : NONE,
      terms: index.bm25.termIdsOf(id),
      neighbours: neighbours.get(id) ?? NONE,
      soft: soft ? soft.score(id) : 0,
      speaker: req.threads ? index.speakerOf(id, req.threads.windowMs) : null,
      session: req.sessions ? index.sessionOf(id, req.sessions.windowMs) : null,
    };
  });
  return {
    hits,
    maxBm25: index.bm25.maxScore(req.terms),
    expansionMax: expTerms.map((t) => index.bm25.maxScore([t])),
    softMax: soft?.max ?? 0,
  };
}

/** The soft-match scorer of the request's query words over this index, or null when no word has a near word here. */
function softScorer(index: WorkspaceIndex, soft: NonNullable<SearchRequest["soft"]>): SoftScorer | null {
  const groups = softGroups(soft.query, soft.lexicon, soft.config, (t) => index.bm25.df(t) > 0);
  return groups.length > 0 ? index.bm25.softScorer(groups, soft.config.perTerm, soft.config.maxShare) : null;
}
