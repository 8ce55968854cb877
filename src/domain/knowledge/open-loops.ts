// Open-loop markers (issue 4): lines carrying TODO or OPENLOOP that are not resolved by a checked box or DONE. Pure.
import { lineStartsOf } from "../text/lines.ts";

export type LoopMarker = "TODO" | "OPENLOOP";

export interface LoopDraft {
  marker: LoopMarker;
  /** 1-based. */
  line: number;
  /** The trimmed line: content.slice(start, end). */
  start: number;
  end: number;
}

const MARKER = /\b(TODO|OPENLOOP)\b/;
const CHECKED_BOX = /^\s*(?:[-*+]|\d+[.)])\s+\[[xX]\]/;
const DONE = /\bDONE\b/;

/** Unresolved markers in document order. Case-sensitive, so prose like "todo list" is not a loop. */
export function findOpenLoops(content: string): LoopDraft[] {
  const starts = lineStartsOf(content);
  const loops: LoopDraft[] = [];
  starts.forEach((lineStart, i) => {
    const lineEnd = (starts[i + 1] ?? content.length + 1) - 1;
    const line = content.slice(lineStart, lineEnd);
    const m = MARKER.exec(line);
    if (!m || CHECKED_BOX.test(line) || DONE.test(line)) return;
    let start = lineStart;
    let end = lineEnd;
    while (start < end && /\s/.test(content[start] ?? "")) start++;
    while (end > start && /\s/.test(content[end - 1] ?? "")) end--;
    loops.push({ marker: m[1] as LoopMarker, line: i + 1, start, end });
  });
  return loops;
}
