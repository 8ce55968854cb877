// What one request's pass through the stack did, layer by layer: the trace process() returns and traces/{id} serves.
import type { LayerId } from "../contract/cognitive-layers.ts";

export type Stage = "perceive" | "weigh" | "decide" | "commit";

export interface TraceStep {
  layer: LayerId;
  stage: Stage;
  /** ran; off (switched off); skipped (prana's budget was spent); failed (threw: skipped, counted, request went on). */
  status: "ran" | "off" | "skipped" | "failed";
  ms: number;
  counts?: Record<string, number>;
  error?: string;
}
