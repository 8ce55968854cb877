// sabha (the council): convenes several retrievers for a hybrid query and fuses their signals with measured weights.
import type { Layer } from "../types.ts";

export const sabha: Layer = {
  id: "sabha",
  job: "Fuses the retrievers (BM25 and the dense embedding) for hybrid queries with the calibrated weights, the dense weight scaled by denseScale; off, hybrid runs as BM25 alone.",
  counters: ["queries_fused"],
  perceive(q, ctx) {
    if (q.requestedMode !== "hybrid") return q;
    ctx.count("queries_fused");
    return { ...q, mode: "hybrid", denseScale: ctx.params.sabha.denseScale };
  },
};
