// buddhi (judgement): the answer/abstain decision. An answer whose confidence is under the threshold is withheld.
import type { Layer } from "../types.ts";

export const buddhi: Layer = {
  id: "buddhi",
  job: "Decides answer or abstain: withholds a grounded answer whose confidence is below min_confidence (default 0.14, the grounded answer's P(right) floor); off, any cited answer is given.",
  counters: ["answers_given", "answers_withheld"],
  decide(a, _e, ctx) {
    const accept = a.citations > 0 && a.confidence > 0 && a.confidence >= a.threshold; // confidence 0 = no answer of the asked kind: withheld at any floor
    ctx.count(accept ? "answers_given" : "answers_withheld");
    return { ...a, accept, reason: accept ? "answered" : a.citations > 0 ? "low_confidence" : "no_evidence" };
  },
};
