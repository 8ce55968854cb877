// Sentence boundaries as offsets into the source, so every sentence stays a literal substring.

export interface Span {
  start: number;
  end: number;
}

const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|inc|ltd|jr|sr|st|no|fig|al)\.$/i;

/** Sentences of text[from, to): split after . ! ? (and newlines) followed by space, trimmed. */
export function splitSentences(text: string, from = 0, to = text.length): Span[] {
  const spans: Span[] = [];
  const re = /[.!?]+["')\]]*\s+|\n\s*/g;
  re.lastIndex = from;
  let start = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const boundary = m.index + m[0].trimEnd().length;
    if (!m[0].startsWith("\n") && ABBREVIATIONS.test(text.slice(Math.max(start, boundary - 6), boundary))) continue;
    push(spans, text, start, Math.min(boundary, to));
    start = m.index + m[0].length;
  }
  push(spans, text, start, to);
  return spans;
}

function push(spans: Span[], text: string, start: number, end: number): void {
  while (start < end && /\s/.test(text[start] ?? "")) start++;
  while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
  if (end > start) spans.push({ start, end });
}
