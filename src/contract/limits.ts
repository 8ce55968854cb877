// Documented bounds of the public API (README "Limits"); one place so validation, docs and tests agree.
export const limits = {
  /** Largest accepted request body, in bytes (413 payload_too_large above it). */
  maxBodyBytes: 8 * 1024 * 1024,
  /** Largest document accepted by ingest, in characters. */
  maxContentChars: 4_000_000,
  maxQueryChars: 4_000,
  maxSourcePathChars: 1_024,
  defaultK: 10,
  maxK: 100,
  defaultPackBudgetTokens: 2_000,
  minPackBudgetTokens: 64,
  maxPackBudgetTokens: 32_000,
  defaultPackItems: 20,
  maxPackItems: 100,
} as const;
