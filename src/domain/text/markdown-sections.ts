// Markdown outline with offsets: YAML front matter and ATX heading sections, ignoring fenced code.
import { lineStartsOf } from "./lines.ts";

export interface Section {
  level: number;
  title: string;
  /** Heading path like chunk anchors: 'A > B'. */
  path: string;
  headingStart: number;
  headingEnd: number;
  /** Body runs from the end of the heading line to the next heading of any level (or the end). */
  bodyStart: number;
  bodyEnd: number;
}

export interface Outline {
  frontMatter: Record<string, { value: string; start: number; end: number }>;
  /** Where content after the front matter begins. */
  bodyStart: number;
  sections: Section[];
  lineStarts: number[];
}

export function outline(content: string): Outline {
  const starts = lineStartsOf(content);
  const lineText = (i: number) =>
    content.slice(starts[i] ?? content.length, starts[i + 1] ?? content.length).replace(/\r?\n$/, "");
  const frontMatter: Outline["frontMatter"] = {};
  let first = 0;
  if (lineText(0) === "---") {
    for (let i = 1; i < starts.length; i++) {
      if (lineText(i) === "---") {
        first = i + 1;
        break;
      }
      const m = /^([A-Za-z_][\w-]*):[ \t]*(.*?)\s*$/.exec(lineText(i));
      if (m?.[1] && m[2]) {
        const valueStart = (starts[i] ?? 0) + lineText(i).indexOf(m[2], m[1].length + 1);
        frontMatter[m[1].toLowerCase()] = { value: m[2], start: valueStart, end: valueStart + m[2].length };
      }
    }
    if (first === 0) for (const k of Object.keys(frontMatter)) delete frontMatter[k];
  }
  const sections: Section[] = [];
  const path: string[] = [];
  let inFence = false;
  for (let i = first; i < starts.length; i++) {
    const line = lineText(i);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const h = inFence ? null : /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const level = (h[1] ?? "#").length;
    path.length = Math.min(path.length, level - 1);
    path[level - 1] = h[2] ?? "";
    const headingStart = starts[i] ?? 0;
    const last = sections.at(-1);
    if (last) last.bodyEnd = headingStart;
    sections.push({
      level,
      title: h[2] ?? "",
      path: path.filter(Boolean).join(" > "),
      headingStart,
      headingEnd: headingStart + line.length,
      bodyStart: starts[i + 1] ?? content.length,
      bodyEnd: content.length,
    });
  }
  return { frontMatter, bodyStart: starts[first] ?? content.length, sections, lineStarts: starts };
}

/** [start, end) with surrounding whitespace removed; null when nothing is left. */
export function trimSpan(content: string, start: number, end: number): { start: number; end: number } | null {
  while (start < end && /\s/.test(content[start] ?? "")) start++;
  while (end > start && /\s/.test(content[end - 1] ?? "")) end--;
  return end > start ? { start, end } : null;
}
