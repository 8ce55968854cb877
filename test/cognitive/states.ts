// Hand-built pipeline states for layer unit tests: a query, evidence from texts, a context that records counts.
import { defaultParams, type CognitiveParams } from "../../src/cognitive/params.ts";
import type { Evidence, EvidenceState, LayerContext, Op, QueryState } from "../../src/cognitive/types.ts";
import type { ChunkRecord } from "../../src/ports/documents.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import { numberTerms } from "../../src/domain/retrieval/similarity.ts";

export function query(text: string, over: Partial<QueryState> = {}): QueryState {
  return {
    op: "recall",
    workspaceId: "ws",
    actorId: null,
    original: text,
    text,
    requestedMode: "hybrid",
    mode: "lexical",
    k: 10,
    filter: {},
    expansion: [],
    denseScale: 1,
    signals: {},
    deadline: null,
    ...over,
  };
}

export function chunk(id: number, text: string, authoredAt = 0): ChunkRecord {
  return {
    id,
    sourcePath: `doc-${id}.md`,
    ord: 0,
    chunkHash: contentHash(text),
    anchor: "",
    start: 0,
    end: text.length,
    text,
    authoredAt,
  };
}

/** Evidence in the given order with descending scores 0.9, 0.8, ... unless given; terms numbered as one index would. */
export function evidence(
  texts: readonly (string | { text: string; score?: number; at?: number })[],
  over: Partial<EvidenceState> & { op?: Op; q?: QueryState } = {},
): EvidenceState {
  const specs = texts.map((t) => (typeof t === "string" ? { text: t } : t));
  const termIds = numberTerms(specs.map((spec) => tokenize(spec.text)));
  const items: Evidence[] = specs.map((spec, i) => {
    const score = spec.score ?? 0.9 - i * 0.1;
    const c = chunk(i + 1, spec.text, spec.at ?? 0);
    const candidate = {
      id: c.id,
      score,
      base: 0,
      bm25: 0,
      lexical: 0,
      lexicalRank: null,
      dense: null,
      denseRank: null,
      contributions: {},
      terms: termIds[i]!,
    };
    return { chunk: c, score, flags: [], candidate };
  });
  const q = over.q ?? query("q", { op: over.op ?? "recall" });
  return { query: q, items, need: over.need ?? 10, diversity: over.diversity ?? 0, droppedDuplicates: 0 };
}

export function context(params: CognitiveParams = defaultParams): LayerContext & { counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  return { params, counts, count: (c, n = 1) => void (counts[c] = (counts[c] ?? 0) + n) };
}

export const ids = (e: EvidenceState) => e.items.map((i) => i.chunk.id);
