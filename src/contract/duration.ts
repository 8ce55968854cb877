// Durations as people write them in query strings ("90m", "12h", "7d", "2w"): the window of a since= read. Pure.
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Milliseconds of "<integer><s|m|h|d|w>", or null when the text is not such a duration. */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : null;
}
