// Which part of a note a line sits in: headings (and plain "Next steps:" labels) that hold open items (issue 40 item 3). Pure.

/** questions: any item or question under it is open; actions: pending work; risks: only its questions are open. */
export type LoopSection = "questions" | "actions" | "risks";

const KINDS: [LoopSection, RegExp][] = [
  [
    "questions",
    /^(?:open (?:questions?|issues?|items?|points?|loops?|threads?)|(?:unanswered |unresolved |remaining )?questions?|unresolved|undecided|to be decided|parking lot|outstanding(?: items| issues| questions)?|blockers?|pending(?: items| decisions| questions)?|tbd)$/i,
  ],
  [
    "actions",
    /^(?:next steps?|action items?|actions|follow[- ]?ups?|to ?dos?|to-dos?|tasks|what'?s left|remaining work|still to do)$/i,
  ],
  ["risks", /^(?:risks?|risks? and (?:issues|mitigations|open questions)|concerns|known issues)$/i],
];

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
/** A line that is only a label ("Next steps:", "**Open questions**"): a section in notes without markdown headings. */
const LABEL = /^\s*(?:\*\*|__)?([A-Za-z][A-Za-z' -]{1,40}?)(?:\*\*|__)?\s*:?(?:\*\*|__)?\s*$/;

/** The loop kind a heading title names, or null; numbering, emphasis, emoji and a trailing colon are ignored. */
export function sectionOf(title: string): LoopSection | null {
  const plain = title
    .replace(/[*_`~]/g, "")
    .replace(/^[\d.)\s]+/, "")
    .replace(/[^\p{L}\p{N}' -]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return KINDS.find(([, re]) => re.test(plain))?.[0] ?? null;
}

/** A heading line: its title and whether it is markdown (ends at the next heading) or a label (ends at a blank line). */
export function headingOf(line: string): { title: string; label: boolean } | null {
  const h = HEADING.exec(line);
  if (h) return { title: h[1] ?? "", label: false };
  const l = LABEL.exec(line);
  return l && sectionOf(l[1] ?? "") !== null ? { title: l[1] ?? "", label: true } : null;
}
