// Open questions: questions nobody answered within the next few turns, or that were explicitly deferred. Pure.
import type { Turn } from "./transcript.ts";
import type { Utterance } from "./utterances.ts";

export interface OpenQuestionDraft {
  utterance: number;
  /** The utterance that deferred the question ("let's come back to that"), when one did. */
  deferral: number | null;
}

/** How many following turns may hold the answer. */
export const ANSWER_WINDOW = 3;
const MIN_QUESTION_WORDS = 3;
const MIN_ANSWER_WORDS = 3;
/** "..., right?", "okay?", "you know?": checks for agreement, not questions. */
const TAG_QUESTION =
  /(?:^|[\s,])(?:right|okay|ok|yeah|no|huh|eh|you know|isn't it|aren't they|don't you think|see|correct|yes)\s*\?+$/i;
const DEFERRAL =
  /\b(?:(?:i|we) (?:don't|do not) know|not sure|no idea|good question|tbd|to be (?:decided|determined|confirmed)|come back to (?:it|that|this)|get back to (?:you|us|them)|take (?:it|that|this) offline|park (?:it|that|this)|(?:let's|we'll|we will|we can|we should) (?:discuss|revisit|talk about) (?:it|that|this) (?:later|next time|offline)|(?:need|have) to (?:find out|check)|haven't decided|not decided|still open)\b/i;
const SHORT_ANSWER = /^(?:yes|no|yeah|yep|nope|sure|correct|exactly|definitely|absolutely|of course)\b/i;
const OPEN_LABEL = /^(?:[-*+•]\s*)?(?:open (?:question|issue)s?|unresolved|question)\s*:\s*\S/i;

const words = (s: string) => s.split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w)).length;

/** True for a sentence worth tracking as a question: ends in "?", has a few words, and is not a tag check. */
export function isQuestion(norm: string): boolean {
  return /\?\s*$/.test(norm) && words(norm) >= MIN_QUESTION_WORDS && !TAG_QUESTION.test(norm);
}

/**
 * A question is answered when one of the next ANSWER_WINDOW turns, by someone else (any turn when speakers are unknown),
 * has a statement (MIN_ANSWER_WORDS+ words, or a short "yes" / "no" / "sure") before any deferral; a deferral or no such statement leaves it open.
 * "Open question: ..." lines are always open. `skip` holds utterances already claimed as action items (accepted requests).
 */
export function findOpenQuestions(
  turns: readonly Turn[],
  utterances: readonly Utterance[],
  skip: ReadonlySet<number>,
): OpenQuestionDraft[] {
  const byTurn = new Map<number, number[]>();
  utterances.forEach((u, i) => {
    const list = byTurn.get(u.turn);
    if (list) list.push(i);
    else byTurn.set(u.turn, [i]);
  });
  const deferralIn = (ids: readonly number[]) => ids.find((j) => DEFERRAL.test(utterances[j]!.norm)) ?? null;
  const out: OpenQuestionDraft[] = [];
  utterances.forEach((u, i) => {
    if (skip.has(i)) return;
    if (OPEN_LABEL.test(u.norm)) return void out.push({ utterance: i, deferral: null });
    if (!isQuestion(u.norm)) return;
    // A later sentence of the asker's own turn that defers ("... but let's park that") also leaves it open.
    const ownDeferral = deferralIn((byTurn.get(u.turn) ?? []).filter((j) => j > i));
    if (ownDeferral !== null) return void out.push({ utterance: i, deferral: ownDeferral });
    const asker = turns[u.turn]?.speaker ?? null;
    for (let t = u.turn + 1; t <= u.turn + ANSWER_WINDOW && t < turns.length; t++) {
      const turn = turns[t]!;
      if (asker !== null && turn.speaker === asker) continue;
      const ids = byTurn.get(t) ?? [];
      const deferral = deferralIn(ids);
      if (deferral !== null) return void out.push({ utterance: i, deferral });
      if (
        ids
          .map((j) => utterances[j]!)
          .some((s) => !/\?\s*$/.test(s.norm) && (words(s.norm) >= MIN_ANSWER_WORDS || SHORT_ANSWER.test(s.norm)))
      )
        return;
    }
    out.push({ utterance: i, deferral: null });
  });
  return out;
}
