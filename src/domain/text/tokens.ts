// Token estimate for pack budgets: conservative without a model-specific tokenizer (README "Limits").

/** max(chars / 4, words x 4 / 3), rounded up: over-estimates rather than overflows a context window. */
export function estimateTokens(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.ceil(Math.max(text.length / 4, (words * 4) / 3));
}
