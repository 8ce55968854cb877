// A when-question answered with an absolute time: the time expression in the answer sentence, resolved against when
// the sentence was said, and an answer that says both ("7 May 2023 ('yesterday', said on 8 May 2023)"); a stated date
// is answered as written.
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
  // A date the text states is answered in its own words (the cited span says the same); only words that need their
  // reference time ("yesterday", "in March") are restated with what they resolve to and from when.
  if (!mention.relative) return { mention, answer: mention.text };
  const said = formatDay(localDay(ref.instant, ref.offsetMinutes ?? 0));
  return { mention, answer: `${mention.label} ('${mention.text}', said on ${said})` };
}

/** The answer when the sentence names no time and reports its event as of when it was said: that day, and why. */
export const saidOn = (instant: number, offsetMinutes = 0): string =>
  `on or before ${formatDay(localDay(instant, offsetMinutes))} (when it was said; the words give no time of their own)`;
