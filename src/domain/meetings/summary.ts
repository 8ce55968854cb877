// Extractive meeting summary: the sentences closest to the meeting's tf-idf centroid, kept diverse by MMR, in transcript order. Pure.
import { mmrOrder } from "../retrieval/mmr.ts";
import { numberTerms } from "../retrieval/similarity.ts";
import { tokenize } from "../text/tokenize.ts";
import type { Utterance } from "./utterances.ts";

export interface SummaryPick {
  utterance: number;
  /** Cosine similarity to the centroid, in [0, 1]. */
  score: number;
}

export const SUMMARY_MAX = 5;
/** One summary sentence per this many candidate sentences (at least one, at most SUMMARY_MAX). */
export const SENTENCES_PER_PICK = 20;
const MIN_WORDS = 6;
const DIVERSITY = 0.3;
/** Spoken fillers are frequent enough to dominate a centroid without saying anything. */
const FILLERS = new Set([
  "um",
  "uh",
  "mm",
  "hmm",
  "yeah",
  "okay",
  "ok",
  "oh",
  "ah",
  "like",
  "realli",
  "right",
  "well",
  "gonna",
  "know",
  "think",
  "mean",
  "thing",
  "yes",
  "sort",
  "kind",
  "actual",
  "probabl",
  "mayb",
  "got",
  "go",
  "get",
  "alright",
]);

/** Centroid summary of the utterances: returns picks in transcript order. */
export function summarize(utterances: readonly Utterance[]): SummaryPick[] {
  const terms = utterances.map((u) => tokenize(u.norm).filter((t) => !FILLERS.has(t)));
  const candidates = utterances
    .map((_, i) => i)
    .filter((i) => terms[i]!.length > 0 && utterances[i]!.norm.split(/\s+/).length >= MIN_WORDS);
  if (candidates.length === 0) return [];
  const df = new Map<string, number>();
  for (const i of candidates) for (const t of new Set(terms[i])) df.set(t, (df.get(t) ?? 0) + 1);
  const vectors = candidates.map((i) => {
    const v = new Map<string, number>();
    for (const t of terms[i]!) v.set(t, (v.get(t) ?? 0) + Math.log(1 + candidates.length / df.get(t)!));
    return v;
  });
  const centroid = new Map<string, number>();
  for (const v of vectors) for (const [t, w] of v) centroid.set(t, (centroid.get(t) ?? 0) + w);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, w) => s + w * w, 0));
  const centroidNorm = norm(centroid);
  const termIds = numberTerms(vectors.map((v) => [...v.keys()]));
  const items = vectors.map((v, i) => {
    let dot = 0;
    for (const [t, w] of v) dot += w * centroid.get(t)!;
    return { relevance: dot / (norm(v) * centroidNorm), terms: termIds[i]! };
  });
  const size = Math.min(SUMMARY_MAX, Math.max(1, Math.ceil(candidates.length / SENTENCES_PER_PICK)));
  const picks: SummaryPick[] = [];
  for (const k of mmrOrder(items, DIVERSITY)) {
    picks.push({ utterance: candidates[k]!, score: Math.min(1, items[k]!.relevance) });
    if (picks.length === size) break;
  }
  return picks.sort((a, b) => a.utterance - b.utterance);
}
