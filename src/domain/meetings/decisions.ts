// Decisions in a meeting: sentences that state one, and proposals another speaker accepts ("Sounds good"). Pure.
import { FREEFORM_LABEL, FREEFORM_WE } from "../knowledge/decisions.ts";
import type { Turn } from "./transcript.ts";
import type { Utterance } from "./utterances.ts";

/** Matched against Utterance.norm (clitics joined, markup removed). Chosen on the even-index QMSum meetings only (eval/qmsum/README.md). */
export const DECISION_CUES: readonly RegExp[] = [
  FREEFORM_WE,
  FREEFORM_LABEL,
  /\b(?:let's|we'll|we will|we're going to|we are going to|we're gonna|we'd better) (?:just |all |definitely )?(?:go with|go for|stick with|stay with|settle on|adopt|choose|pick|opt for)\b/i,
  /\b(?:decided|agreed) (?:to|that|on|upon)\b/i,
  /\b(?:the|our|final) decision (?:is|was|has been)\b/i,
  /\bfinal (?:decision|answer|call)\b/i,
  /\b(?:it's|that's|it is|that is|so) (?:settled|decided|agreed|final)\b/i,
  /\b(?:we're|we are|we all|everyone|everybody)(?: all)? (?:agreed|in agreement|agree)\b/i,
  /\bconsensus\b/i,
  // A conclusion opened by "so": "So we'll use the rubber case." (not "so we should ...", a suggestion).
  /^(?:(?:okay|ok|right|alright|yeah|and|well|um|uh),? )*so,? we(?:'ll| will| are going to|'re going to|'re gonna| have decided)\b/i,
];

/** Acceptance of what someone else just proposed; "I agree" alone is too often followed by "but". */
export const AGREEMENT =
  /\b(?:agreed|sounds good|(?:good|great|nice) idea|makes sense|fair enough|let's do (?:that|it)|fine with me|that works)\b/i;
/** How many turns back the accepted proposal may be. */
export const PROPOSAL_WINDOW = 2;
const MIN_PROPOSAL_WORDS = 4;

export interface DecisionDraft {
  /** The utterance that states the decision (for an accepted proposal: the proposal). */
  utterance: number;
  /** Utterances that accept it, cited after it. */
  acceptedIn: number[];
}

/**
 * Decisions in transcript order: cue sentences, plus proposals an AGREEMENT accepts: the last sentence of 4+ words (not itself an
 * agreement) of one of the PROPOSAL_WINDOW previous turns by someone else. With no such proposal in view the agreement itself is listed:
 * it still marks where something was settled (and kept the tune-split hit rate, eval/qmsum/README.md).
 */
export function findDecisions(turns: readonly Turn[], utterances: readonly Utterance[]): DecisionDraft[] {
  const lastOfTurn = new Map<number, number>();
  utterances.forEach((u, i) => {
    if (u.norm.split(" ").length >= MIN_PROPOSAL_WORDS && !AGREEMENT.test(u.norm)) lastOfTurn.set(u.turn, i);
  });
  const byUtterance = new Map<number, DecisionDraft>();
  const draftAt = (i: number): DecisionDraft => {
    const d = byUtterance.get(i) ?? { utterance: i, acceptedIn: [] };
    byUtterance.set(i, d);
    return d;
  };
  utterances.forEach((u, i) => {
    if (DECISION_CUES.some((re) => re.test(u.norm))) draftAt(i);
    if (!AGREEMENT.test(u.norm)) return;
    const speaker = turns[u.turn]?.speaker ?? null;
    let proposal: number | undefined;
    for (let t = u.turn - 1; t >= Math.max(0, u.turn - PROPOSAL_WINDOW) && proposal === undefined; t--)
      if (speaker === null || turns[t]?.speaker !== speaker) proposal = lastOfTurn.get(t);
    if (proposal === undefined) draftAt(i);
    else draftAt(proposal).acceptedIn.push(i);
  });
  return [...byUtterance.values()].sort((a, b) => a.utterance - b.utterance);
}
