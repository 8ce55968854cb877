// Which spoken sentences state a decision: the free-form decision patterns of the markdown extractor plus spoken forms.
import { FREEFORM_LABEL, FREEFORM_WE } from "./decisions.ts";

/** Matched against Utterance.norm (clitics joined, markup removed). Tuned on the even-index QMSum meetings only (eval/qmsum/README.md). */
export const DECISION_CUES: readonly RegExp[] = [
  FREEFORM_WE,
  FREEFORM_LABEL,
  /\b(?:let's|we'll|we will|we're going to|we are going to|we're gonna|we'd better) (?:just |all |definitely )?(?:go with|go for|stick with|stay with|settle on|adopt|choose|pick|opt for)\b/i,
  /\b(?:decided|agreed) (?:to|that|on|upon)\b/i,
  /\b(?:the|our|final) decision (?:is|was|has been)\b/i,
  /\bfinal (?:decision|answer|call)\b/i,
  /\b(?:it's|that's|it is|that is|so) (?:settled|decided|agreed|final)\b/i,
  /^(?:ok(?:ay)?,? |yes,? |so,? )?agreed\b/i,
  /\b(?:we're|we are|we all|everyone|everybody)(?: all)? (?:agreed|in agreement|agree)\b/i,
  /\bconsensus\b/i,
];

/** True when the normalized sentence states a decision. */
export function isDecision(norm: string): boolean {
  return DECISION_CUES.some((re) => re.test(norm));
}
