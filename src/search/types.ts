// The shapes of retrieval, shared by the search engine, the cognitive layers and the services above them.
import type { ChunkRecord } from "../ports/documents.ts";

export type Mode = "hybrid" | "lexical" | "vector";

/** Metadata filters evaluated inside the indexes, so k results survive filtering. */
export interface ChunkFilter {
  sourcePathPrefix?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

export interface ExpansionTerm {
  term: string;
  weight: number;
}

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
  /** The chunk's distinct term ids, ascending, as the index that found it numbers them: comparable within one search. */
  terms: Int32Array;
  /** Hybrid: the turns beside it in its conversation that the thread lift raised toward it (absent: none looked up). */
  neighbours?: readonly number[] | undefined;
  /** Hybrid: who speaks it, as a query term, when it is a named turn of a conversation. */
  speaker?: string | undefined;
  /** Hybrid with sessions: the id of its session's first turn, when it is a turn of one. */
  session?: number | undefined;
}

/**
 * A rule that reads the best candidates' rows and moves their base logits before stage 2, where the speaker and session
 * rules act: `deltas` gets the rows best first with their bases and returns the logit to add to each (0: none).
 */
/** The best candidates a query's lifts read, whatever rows a caller asks for: what they move must not depend on k. */
export const LIFTED_ROWS = 50;

export interface BaseLift {
  /** Its name among explain's contributions. */
  term: string;
  /** A rule of what memory holds, not of the query's words: it acts even where `queryLifts` is off. */
  always?: boolean | undefined;
  deltas(rows: readonly LiftRow[]): readonly number[] | Promise<readonly number[]>;
}

/** A candidate as a lift reads it: its row, its base logit and what has moved that so far. */
export interface LiftRow {
  chunk: ChunkRecord;
  base: number;
  contributions: Readonly<Record<string, number>>;
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
