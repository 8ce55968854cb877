// Attendees of a meeting: the distinct speakers plus the names on "Attendees:" / "Participants:" / "Present:" lines. Pure.
import type { Span } from "../text/sentences.ts";
import type { Transcript } from "./transcript.ts";

export interface AttendeeDraft {
  name: string;
  /** Where the name is first written: a list entry or the first turn's speaker label. */
  span: Span;
  /** Turns this attendee spoke. */
  turns: number;
  firstTurn: number | null;
  source: "speaker" | "attendee_list" | "both";
}

const SEPARATOR = /\s*(?:[,;&|]|\band\b)\s*/gi;

/** Attendees in order of first mention. A listed "Alice Chen" and a speaker "Alice" are one attendee, named as the speaker. */
export function findAttendees(text: string, t: Transcript): AttendeeDraft[] {
  const byKey = new Map<string, AttendeeDraft>();
  for (const turn of t.turns) {
    if (!turn.speaker || !turn.speakerSpan) continue;
    const key = turn.speaker.toLowerCase();
    const a = byKey.get(key);
    if (a) a.turns++;
    else
      byKey.set(key, {
        name: turn.speaker,
        span: turn.speakerSpan,
        turns: 1,
        firstTurn: turn.index,
        source: "speaker",
      });
  }
  const speakers = [...byKey.values()];
  for (const list of t.attendeeLists)
    for (const entry of listEntries(text, list)) {
      const name = text.slice(entry.start, entry.end);
      const first = name.split(/\s+/)[0]!.toLowerCase();
      const same =
        byKey.get(name.toLowerCase()) ??
        (/\s/.test(name) ? uniqueOrNull(speakers.filter((s) => s.name.toLowerCase() === first)) : null);
      if (same) {
        if (same.source === "speaker")
          Object.assign(same, { source: "both", span: entry.start < same.span.start ? entry : same.span });
      } else byKey.set(name.toLowerCase(), { name, span: entry, turns: 0, firstTurn: null, source: "attendee_list" });
    }
  return [...byKey.values()].sort((a, b) => a.span.start - b.span.start);
}

const uniqueOrNull = <T>(xs: T[]): T | null => (xs.length === 1 ? xs[0]! : null);

/** The names of one list, as literal ranges: separators split, "(role)" suffixes and trailing dots dropped. */
function listEntries(text: string, list: Span): Span[] {
  const value = text.slice(list.start, list.end);
  const out: Span[] = [];
  let from = 0;
  const push = (to: number) => {
    const piece = value.slice(from, to);
    const name = /^\s*(?:@|[-*]\s+)?(.*?)\s*(?:\([^)]*\)\s*)?\.?\s*$/.exec(piece)?.[1] ?? "";
    if (/\p{L}/u.test(name)) {
      const at = list.start + from + piece.indexOf(name);
      out.push({ start: at, end: at + name.length });
    }
  };
  for (const m of value.matchAll(SEPARATOR)) {
    push(m.index);
    from = m.index + m[0].length;
  }
  push(value.length);
  return out;
}
