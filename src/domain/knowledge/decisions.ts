// Decision extraction from markdown (issue 4): ADR/MADR and Nygard sections, else free-form "we decided" / "Decision:" lines. Pure.
import { splitSentences } from "../text/sentences.ts";
import { outline, trimSpan, type Outline, type Section } from "../text/markdown-sections.ts";
import { lineAt } from "../text/lines.ts";

export type DecisionStyle = "madr" | "nygard" | "freeform";
export type DecisionFieldName = "title" | "status" | "date" | "context" | "decision" | "consequences" | "options";

/** A literal [start, end) range of the content backing one field, with its heading-path anchor. */
export interface FieldSpan {
  field: DecisionFieldName;
  start: number;
  end: number;
  anchor: string;
}

export interface DecisionDraft {
  style: DecisionStyle;
  title: string;
  status: string | null;
  date: string | null;
  context: string | null;
  decision: string;
  chosenOption: string | null;
  consequences: string | null;
  options: string[];
  /** What a Status line says this ADR replaces, or was replaced by (adr-tools' "Supersedes [2. X](0002-x.md)"). */
  supersedes: string | null;
  supersededBy: string | null;
  spans: FieldSpan[];
}

/** The link target (else the words) after "Supersedes" / "Superseded by" in a status text. */
export function statusLink(status: string, verb: "supersedes" | "superseded by"): string | null {
  const m = new RegExp(`\\b${verb}:?\\s+(?:\\[[^\\]]*\\]\\(([^)\\s]+)\\)|([^\\n]+))`, "i").exec(status);
  return m ? (m[1] ?? m[2]!.trim()) : null;
}

const DECISION_HEADING = /^(?:decision outcome|decisions?|decision made)$/i;
export const FREEFORM_WE = /\bwe(?:'ve| have)?\s+(?:decided|agreed|chose|opted)\b/i;
export const FREEFORM_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?decision(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(\S.*?)\s*$/i;
const FREEFORM_TITLE_CHARS = 120;

/** Every decision the markdown records, in document order; [] when it records none. */
export function extractDecisions(content: string): DecisionDraft[] {
  const o = outline(content);
  const adr = extractAdr(content, o);
  return adr ? [adr] : extractFreeform(content, o);
}

function anchorAt(o: Outline, start: number, end: number): string {
  // Binary search: the last section whose heading starts at or before `start` (sections are in document order).
  let lo = 0;
  let hi = o.sections.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((o.sections[mid]?.headingStart ?? Infinity) <= start) lo = mid + 1;
    else hi = mid;
  }
  const section: Section | undefined = o.sections[lo - 1];
  return section?.path ?? `L${lineAt(o.lineStarts, start)}-L${lineAt(o.lineStarts, Math.max(start, end - 1))}`;
}

function bodyOf(content: string, s: Section | undefined): { start: number; end: number } | null {
  return s ? trimSpan(content, s.bodyStart, s.bodyEnd) : null;
}

/** An ADR: an H1 plus a Decision / Decision Outcome section with text, or a Status section. */
function extractAdr(content: string, o: Outline): DecisionDraft | null {
  const h1 = o.sections.find((s) => s.level === 1);
  const find = (re: RegExp) => o.sections.find((s) => s !== h1 && re.test(s.title.trim()));
  const decisionSec = find(DECISION_HEADING);
  const statusSec = find(/^status$/i);
  if (!h1 || (!decisionSec && !statusSec)) return null;
  const spans: FieldSpan[] = [];
  const add = (field: DecisionFieldName, r: { start: number; end: number } | null): string | null => {
    if (!r) return null;
    spans.push({ field, ...r, anchor: anchorAt(o, r.start, r.end) });
    return content.slice(r.start, r.end);
  };
  const heading = content.slice(h1.headingStart, h1.headingEnd);
  const titleAt = h1.headingStart + heading.indexOf(h1.title);
  const numbered = /^\d+[.:)]?\s+/.exec(h1.title);
  const title =
    add("title", { start: titleAt + (numbered?.[0].length ?? 0), end: titleAt + h1.title.length }) ?? h1.title;

  // Text between the H1 and the first sub-heading: Nygard's "Date:" and "Status:" lines live there.
  const preamble = {
    start: h1.bodyStart,
    end: o.sections.find((s) => s.headingStart > h1.headingStart)?.headingStart ?? content.length,
  };
  const labelled = (label: string) => {
    const m = new RegExp(
      `^[ \\t]*(?:[-*+][ \\t]+)?(?:\\*\\*)?${label}(?:\\*\\*)?:[ \\t]*(?:\\*\\*)?[ \\t]*(\\S[^\\n]*?)[ \\t]*$`,
      "im",
    ).exec(content.slice(preamble.start, preamble.end));
    if (!m?.[1]) return null;
    const start = preamble.start + m.index + m[0].lastIndexOf(m[1]);
    return { start, end: start + m[1].length };
  };
  const fm = (key: string) => {
    const f = o.frontMatter[key];
    return f && f.value.trim() ? { start: f.start, end: f.end } : null;
  };
  const statusBody = bodyOf(content, statusSec);
  const statusPara =
    statusBody && trimSpan(content, statusBody.start, firstParagraphEnd(content, statusBody.start, statusBody.end));
  const status = add("status", statusPara ?? labelled("status") ?? fm("status"));
  const date = add("date", labelled("date") ?? fm("date"));
  const context = add("context", bodyOf(content, find(/^context\b/i)));
  const decision = add("decision", bodyOf(content, decisionSec));
  if (decision === null) return null;
  const consequences = add("consequences", bodyOf(content, find(/^consequences$/i)));
  const optionsSec = find(/^considered options$/i);
  const optionsBody = bodyOf(content, optionsSec);
  const options = optionsBody ? listItems(content, optionsBody.start, optionsBody.end) : [];
  if (optionsBody && options.length > 0) add("options", optionsBody);
  const chosenOption = chosenOptionOf(decision);
  const madr =
    chosenOption !== null ||
    /^decision outcome$/i.test(decisionSec?.title.trim() ?? "") ||
    Object.keys(o.frontMatter).length > 0;
  return {
    style: madr ? "madr" : "nygard",
    title,
    status: status && status.replace(/\s+/g, " ").toLowerCase(),
    date,
    context,
    decision,
    chosenOption,
    consequences,
    options,
    ...supersessionOf(statusBody ? content.slice(statusBody.start, statusBody.end) : (status ?? "")),
    spans,
  };
}

function firstParagraphEnd(content: string, start: number, end: number): number {
  const blank = /\n[ \t]*\r?\n/.exec(content.slice(start, end));
  return blank ? start + blank.index : end;
}

/** Top-level list items ('*', '-', '+', '1.') of a range, marker removed. */
function listItems(content: string, start: number, end: number): string[] {
  return [...content.slice(start, end).matchAll(/^ {0,3}(?:[-*+]|\d+[.)])[ \t]+(\S.*?)[ \t]*\r?$/gm)]
    .map((m) => m[1] ?? "")
    .filter(Boolean);
}

/** MADR's 'Chosen option: "X", because ...' (quotes optional). */
export function chosenOptionOf(text: string): string | null {
  const m = /^[ \t]*(?:\*\*)?Chosen option(?:\*\*)?:(?:\*\*)?[ \t]*(?:(["'`])(.+?)\1|([^,\n]+))/im.exec(text);
  const option = (m?.[2] ?? m?.[3])?.trim();
  return option ? option : null;
}

/** Lines outside fences and front matter that state a decision; one draft per line. */
function extractFreeform(content: string, o: Outline): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  const starts = o.lineStarts;
  let inFence = false;
  for (let i = lineAt(starts, o.bodyStart) - 1; i < starts.length; i++) {
    const lineStart = starts[i] ?? content.length;
    const lineEnd = (starts[i + 1] ?? content.length + 1) - 1;
    const line = content.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || /^\s{0,3}#/.test(line)) continue;
    let span: { start: number; end: number } | null = null;
    const label = FREEFORM_LABEL.exec(line);
    if (label?.[1]) {
      const at = lineStart + line.lastIndexOf(label[1]);
      span = trimSpan(content, at, at + label[1].length);
    } else if (FREEFORM_WE.test(line)) {
      const hitAt = lineStart + (FREEFORM_WE.exec(line)?.index ?? 0);
      span = splitSentences(content, lineStart, lineEnd).find((s) => s.start <= hitAt && hitAt < s.end) ?? null;
      if (span)
        span = trimSpan(
          content,
          span.start + (/^\s*(?:[-*+]|\d+[.)])\s+/.exec(content.slice(span.start, span.end))?.[0].length ?? 0),
          span.end,
        );
    }
    if (!span) continue;
    const decision = content.slice(span.start, span.end);
    const anchor = anchorAt(o, span.start, span.end);
    const dateMatch = /\b\d{4}-\d{2}-\d{2}\b/.exec(line);
    const spans: FieldSpan[] = [{ field: "decision", ...span, anchor }];
    if (dateMatch)
      spans.push({
        field: "date",
        start: lineStart + dateMatch.index,
        end: lineStart + dateMatch.index + dateMatch[0].length,
        anchor,
      });
    out.push({
      style: "freeform",
      title: shorten(decision, FREEFORM_TITLE_CHARS),
      status: null,
      date: dateMatch?.[0] ?? null,
      context: null,
      decision,
      chosenOption: null,
      consequences: null,
      options: [],
      supersedes: null,
      supersededBy: null,
      spans,
    });
  }
  return out;
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(" ", max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/** Both links of a Status section (adr-tools keeps "Accepted" and adds a "Supersedes ..." paragraph below it). */
function supersessionOf(statusText: string): { supersedes: string | null; supersededBy: string | null } {
  return { supersedes: statusLink(statusText, "supersedes"), supersededBy: statusLink(statusText, "superseded by") };
}
