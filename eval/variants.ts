// The retrieval variants every set is measured with.
import type { RetrievalConfig } from "../src/search/retrieval-config.ts";
import type { Mode } from "../src/search/types.ts";
import { LAYER_IDS } from "../src/contract/cognitive-layers.ts";
import { defaultCognitiveConfig, withSwitches, type CognitiveConfig } from "../src/cognitive/params.ts";

export interface Variant {
  name: string;
  label: string;
  mode: Mode;
  retrieval: RetrievalConfig;
  /** The cognitive stack's config (default: the shipped one). */
  cognitive?: CognitiveConfig;
}

/** Every cognitive layer off: the baselines measure the retrievers themselves (no expansion, no demotions). */
export const noLayers: CognitiveConfig = withSwitches(
  defaultCognitiveConfig,
  Object.fromEntries(LAYER_IDS.map((id) => [id, false])),
);

/**
 * plain BM25 = mode "lexical" with no cognitive layer and no query lifts (the score is monotone in BM25, so the order
 * is BM25's); GloVe only = mode "vector" with neither (dense cosine alone);
 * Smriti default = mode "hybrid" (the service default) with the given weights and the shipped layers.
 */
export function standardVariants(config: RetrievalConfig, hybridLabel = "Smriti default (hybrid)"): Variant[] {
  const plain = { ...config, queryLifts: false };
  return [
    { name: "bm25", label: "plain BM25", mode: "lexical", retrieval: plain, cognitive: noLayers },
    { name: "glove", label: "GloVe-SIF only", mode: "vector", retrieval: plain, cognitive: noLayers },
    { name: "hybrid", label: hybridLabel, mode: "hybrid", retrieval: config },
  ];
}

/** Only sabha (the fusion) on, at the calibrated dense weight: what the calibration grid measures. */
export const fusionOnly: CognitiveConfig = {
  ...withSwitches(noLayers, { sabha: true }),
  params: { ...noLayers.params, sabha: { denseScale: 1 } },
};

/** Hybrid fusion with dense weight = ratio x lexical weight (the ranking depends on nothing else). */
export function ratioVariant(config: RetrievalConfig, ratio: number): Variant {
  const { fusion } = config.hybrid;
  return {
    name: `ratio-${ratio}`,
    label: `hybrid w_dense/w_lex=${ratio}`,
    mode: "hybrid",
    retrieval: { ...config, hybrid: { ...config.hybrid, fusion: { ...fusion, dense: ratio * fusion.lexical } } },
    cognitive: fusionOnly,
  };
}
