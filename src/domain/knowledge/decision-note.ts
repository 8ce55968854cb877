// Renders a recorded decision as an MADR-style note, so recall finds it and decision extraction reads it back. Pure.
export interface DecisionNoteFields {
  ref: string;
  title: string;
  status: string;
  date: string | null;
  context: string | null;
  decision: string;
  chosenOption: string | null;
  consequences: string | null;
  options: readonly string[];
}

export function renderDecisionNote(d: DecisionNoteFields): string {
  const lines = [`# ${oneLine(d.title)}`, "", `- Status: ${oneLine(d.status)}`];
  if (d.date) lines.push(`- Date: ${d.date}`);
  lines.push(`- Ref: ${d.ref}`, "");
  if (d.context) lines.push("## Context and Problem Statement", "", d.context, "");
  if (d.options.length > 0) lines.push("## Considered Options", "", ...d.options.map((o) => `- ${oneLine(o)}`), "");
  lines.push("## Decision Outcome", "");
  if (d.chosenOption) lines.push(`Chosen option: "${oneLine(d.chosenOption)}"`, "");
  lines.push(d.decision, "");
  if (d.consequences) lines.push("## Consequences", "", d.consequences, "");
  return lines.join("\n");
}

/** Titles and list items must stay on their line, or the note's structure would change. */
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
