// What the tuner may change, in order: expansion on/off and strength, fusion weight, duplicate penalty, recency
// (chitta's frequency stays 0: it would learn from the replays themselves). The eval tuner and the feedback tuner share it.
import type { Knob } from "./tuner.ts";

export const TUNER_KNOBS: readonly Knob[] = [
  { layer: "manas", parameter: "enabled", values: [false] },
  { layer: "manas", parameter: "maxQueryTerms", values: [6, 10, 14] },
  { layer: "manas", parameter: "weight", values: [0.25, 1, 1.5] },
  { layer: "manas", parameter: "minSimilarity", values: [0.6, 0.65, 0.8] },
  { layer: "manas", parameter: "neighbours", values: [1, 3] },
  { layer: "sabha", parameter: "denseScale", values: [0.75, 1.25, 1.5] },
  { layer: "viveka", parameter: "duplicatePenalty", values: [0.5, 3] },
  { layer: "chitta", parameter: "enabled", values: [true] },
  { layer: "chitta", parameter: "recency", values: [0.25, 1] },
];
