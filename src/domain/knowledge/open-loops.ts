// Open loops as people write them (issues 4 and 40): markers, open questions, unchecked boxes and items under
// headings like "Open questions" or "Next steps", unless the line is resolved. Pure.
import { lineStartsOf } from "../text/lines.ts";
import { dueOf, ownerOf } from "./loop-details.ts";
import { headingOf, sectionOf, type LoopSection } from "./loop-sections.ts";

/** What made the line a loop: an uppercase marker, an open question, an "unresolved" word, an unchecked box, or an item of a loop section. */
export type LoopMarker = "TODO" | "OPENLOOP" | "TBD" | "FIXME" | "QUESTION" | "UNRESOLVED" | "CHECKBOX" | "SECTION";

export interface LoopDraft {
  marker: LoopMarker;
  /** 1-based. */
  line: number;
  /** The trimmed line: content.slice(start, end). */
  start: number;
  end: number;
  owner: string | null;
  due: string | null;
}

const UPPER = /\b(TODO|OPENLOOP|TBD|FIXME)\b/;
const OPEN_QUESTION = /\bopen (?:question|issue)s?\b\s*[:-]|^\W*(?:question|q)\s*:/i;
const UNRESOLVED = /\b(?:unresolved|undecided|still open|not (?:yet )?decided|to be decided)\b/i;
const UNCHECKED = /^\s*(?:[-*+]|\d+[.)])\s+\[ \]/;
const CHECKED_BOX = /^\s*(?:[-*+]|\d+[.)])\s+\[[xX]\]/;
const ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+\S/;
const RESOLVED =
  /\bDONE\b|\bRESOLVED\b|^\W*(?:resolved|answered|closed|decided)\s*:|\((?:done|resolved|answered|closed)\)|✅|^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\[.\]\s+)?~~/i;
const FENCE = /^\s*(?:```|~~~)/;

/** Why a line of a section (or none) is a loop, or null. */
function markerOf(line: string, section: LoopSection | null): LoopMarker | null {
  const upper = UPPER.exec(line)?.[1] as LoopMarker | undefined;
  if (upper) return upper;
  if (OPEN_QUESTION.test(line)) return "QUESTION";
  if (UNRESOLVED.test(line)) return "UNRESOLVED";
  if (UNCHECKED.test(line)) return "CHECKBOX";
  const asks = /\?\s*(?:\*\*|_)?\s*(?:\(.*\))?\s*$/.test(line);
  if (section === "risks") return asks ? "QUESTION" : null;
  if (section) return asks ? "QUESTION" : ITEM.test(line) ? "SECTION" : null;
  return null;
}

/** Unresolved loops in document order. Markers are case-sensitive, so prose like "todo list" is not a loop. */
export function findOpenLoops(content: string): LoopDraft[] {
  const starts = lineStartsOf(content);
  const loops: LoopDraft[] = [];
  let section: LoopSection | null = null;
  let labelled = false;
  let body = false;
  let fenced = false;
  starts.forEach((lineStart, i) => {
    const lineEnd = (starts[i + 1] ?? content.length + 1) - 1;
    const line = content.slice(lineStart, lineEnd).replace(/\r$/, "");
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : headingOf(line);
    if (heading) {
      [section, labelled, body] = [sectionOf(heading.title), heading.label, false];
      // A heading is a loop only when it carries a marker and names no loop section ("## TODO: pick a name", not "## TODO").
      if (!UPPER.test(line) || section) return;
    } else if (labelled && line.trim() === "") {
      // A label's section ends at the first blank line after its items.
      if (body) [section, labelled] = [null, false];
    } else body = true;
    const marker = markerOf(line, fenced ? null : section);
    if (!marker || CHECKED_BOX.test(line) || RESOLVED.test(line)) return;
    let start = lineStart;
    let end = lineEnd;
    while (start < end && /\s/.test(content[start] ?? "")) start++;
    while (end > start && /\s/.test(content[end - 1] ?? "")) end--;
    const text = content.slice(start, end);
    loops.push({ marker, line: i + 1, start, end, owner: ownerOf(text), due: dueOf(text) });
  });
  return loops;
}
