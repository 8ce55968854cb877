// A plain-text document's title: its first paragraph when that is a single short line with more text after it (a
// paper's title above its abstract, a note's subject line). Search weighs it as a field of every chunk.
import { readsAsTurn } from "../meetings/speaker-label.ts";
import { datedLines } from "../time/dated-lines.ts";
import { readsAsSpoken } from "./spoken.ts";

/** Longer than this, a first line is a paragraph rather than a title. */
const TITLE_MAX_CHARS = 300;

/**
 * The title and where it ends in `content`, or null when the document opens with no title line. A conversation's
 * first turn ("Alice: ...", "user: ...", or unlabelled: "I'm planning a trip, can you help?") and a date stamp
 * ("Session 1 - 8 May 2023") are no title: what they say is not what every later chunk is about. Read in linear time: the content is a caller's (a regex here had backtracked
 * quadratically over a long run of blanks).
 */
export function documentTitle(content: string): { text: string; end: number } | null {
  const first = content.indexOf("\n");
  if (first < 0 || first > 4 * TITLE_MAX_CHARS) return null;
  const line = content.slice(0, first);
  const text = line.trim();
  if (!text || text.length > TITLE_MAX_CHARS) return null;
  const second = content.indexOf("\n", first + 1);
  if (second < 0 || content.slice(first + 1, second).trim() !== "") return null;
  const after = /\S/g;
  after.lastIndex = second + 1;
  if (!after.test(content)) return null;
  if (readsAsTurn(text) || readsAsSpoken(text) || datedLines(text).length > 0) return null;
  return { text, end: line.indexOf(text) + text.length };
}
