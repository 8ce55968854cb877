// Who an action is for: a capitalized name that is a known attendee or not a common capitalized word. Pure.

/** Capitalized words that open sentences but never name a person. */
const NOT_NAMES = new Set(
  "i we you they he she it this that these those there here which who what whoever someone somebody everyone everybody nobody anyone anybody each both all one then so and but or also now well yeah yes no okay ok maybe perhaps probably just next everything nothing something let please today tomorrow tonight monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december the a an if when once after before".split(
    " ",
  ),
);

/** A regex alternation of the known names (longest first, so "Alice Chen" wins over "Alice") plus any capitalized word. */
export function namePattern(known: readonly string[]): string {
  const escaped = [...known].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return `(?:${[...escaped, String.raw`[\p{L}][\p{L}'-]*`].join("|")})`;
}

/** The attendee a captured name refers to (case-insensitive, first names of "First Last" included), else the name if it looks like one. */
export function ownerName(captured: string, known: readonly string[]): string | null {
  const lower = captured.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  const byFirst = known.filter((k) => k.split(/\s+/)[0]?.toLowerCase() === lower && /^\p{Lu}\p{Ll}+\s+\p{Lu}/u.test(k));
  if (byFirst.length === 1) return byFirst[0]!;
  return /^\p{Lu}/u.test(captured) && !/\s/.test(captured) && !NOT_NAMES.has(lower) ? captured : null;
}
