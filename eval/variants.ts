// The retrieval variants every set is measured with.
import type { RetrievalConfig } from "../src/services/retrieval-config.ts";
import type { Mode } from "../src/services/retriever.ts";

export interface Variant {
  name: string;
  label: string;
  mode: Mode;
  retrieval: RetrievalConfig;
}

/**
 * plain BM25 = mode "lexical" (the score is monotone in BM25, so the order is BM25's);
 * GloVe only = mode "vector" (dense cosine alone);
 * Smriti default = mode "hybrid" (the service default) with the given weights.
 */
export function standardVariants(config: RetrievalConfig, hybridLabel = "Smriti default (hybrid)"): Variant[] {
  return [
    { name: "bm25", label: "plain BM25", mode: "lexical", retrieval: config },
    { name: "glove", label: "GloVe-SIF only", mode: "vector", retrieval: config },
    { name: "hybrid", label: hybridLabel, mode: "hybrid", retrieval: config },
  ];
}

/** Hybrid fusion with dense weight = ratio x lexical weight (the ranking depends on nothing else). */
export function ratioVariant(config: RetrievalConfig, ratio: number): Variant {
  const { fusion } = config.hybrid;
  return {
    name: `ratio-${ratio}`,
    label: `hybrid w_dense/w_lex=${ratio}`,
    mode: "hybrid",
    retrieval: { ...config, hybrid: { ...config.hybrid, fusion: { ...fusion, dense: ratio * fusion.lexical } } },
  };
}
