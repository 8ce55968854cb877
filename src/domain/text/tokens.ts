// Token estimate for pack budgets: conservative without a model-specific tokenizer (README "Limits").

/** max(chars / 4, words x 4 / 3), rounded up: over-estimates rather than overflows a context window. */
export function estimateTokens(text: string): number {
  return Math.ceil(Math.max(text.length / 4, (countWords(text) * 4) / 3));
}

const byMessage = new WeakMap<object, number>();

/**
 * estimateTokens of a message's content, counted once per message object: a session's conversation is measured again
 * at every step of every turn (tool results of ~12 KB among it), and its messages do not change.
 */
export function messageTokens(message: { readonly content: string }): number {
  let n = byMessage.get(message);
  if (n === undefined) byMessage.set(message, (n = estimateTokens(message.content)));
  return n;
}

/** Runs of non-space characters (what `text.split(/\s+/).filter(Boolean)` counts), without building the array. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** JavaScript's \s: ASCII whitespace, NBSP, the Unicode space separators, line and paragraph separators, BOM. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
