// A when-question answered with an absolute time: the time expression in the answer sentence, resolved against when
// the sentence was said, and an answer that says both ("7 May 2023 ('yesterday', said on 8 May 2023)").
import { formatDay, localDay } from "./calendar.ts";
import { findTimeExpressions, type Reference, type TimeAnnotation } from "./expressions.ts";

interface Span {
  start: number;
  end: number;
}

/** The expression `sentence` (offsets in `text`) holds, preferring one overlapping `focus`; null when it holds none. */
export function whenAnswer(
  text: string,
  sentence: Span,
  focus: Span | null,
  ref: Reference,
): { mention: TimeAnnotation; answer: string } | null {
  const mentions = findTimeExpressions(text.slice(sentence.start, sentence.end), ref).map((m) => ({
    ...m,
    start: m.start + sentence.start,
    end: m.end + sentence.start,
  }));
  // The span the answerer chose wins; when it is a date these words do not cover ("1887"), that date stays the answer.
  const mention = focus ? mentions.find((m) => m.start < focus.end && focus.start < m.end) : mentions[0];
  if (!mention) return null;
  const said = formatDay(localDay(ref.instant, ref.offsetMinutes ?? 0));
  const answer = mention.relative ? `${mention.label} ('${mention.text}', said on ${said})` : mention.label;
  return { mention, answer };
}
