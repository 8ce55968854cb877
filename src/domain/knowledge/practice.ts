// Practice (nididhyasan): turns a reflection into a habit, task, rule, checklist, project or principle, and renders it as a note. Pure.
export type ImplementationType = "habit" | "task" | "rule" | "checklist" | "project" | "principle";
export type ItemKind = "statement" | "support" | "caveat" | "step" | "check" | "cue" | "resolve";

/** A reflected sentence and whatever the caller uses to cite it (null: a question given at capture, with no span). */
export interface Reflected<R> {
  text: string;
  ref: R | null;
}

export interface Reflection<R> {
  title: string;
  claims: readonly Reflected<R>[];
  questions: readonly Reflected<R>[];
  counterpoints: readonly Reflected<R>[];
  principles: readonly Reflected<R>[];
}

export interface ArtefactItem<R> {
  kind: ItemKind;
  text: string;
  ref: R | null;
}

export interface Artefact<R> {
  type: ImplementationType;
  title: string;
  cadence: string | null;
  items: ArtefactItem<R>[];
}

const CADENCE = /\b(daily|weekly|monthly|quarterly|every (?:day|morning|evening|week|month|sprint|release|quarter))\b/i;
const MAX_ITEMS = 12;

const item = <R>(kind: ItemKind, r: Reflected<R>): ArtefactItem<R> => ({ kind, text: r.text, ref: r.ref });

/**
 * The artefact of each type, built from the reflection's lists (the lead is the first principle, else the first claim):
 * principle = lead + up to 3 supporting claims + counterpoints as caveats; rule = lead + counterpoints as exceptions (caveats);
 * checklist = every principle, then claims, as checks; habit = a cue (the source) + the lead as the routine, cadence as stated;
 * task = the lead as the step + open questions to resolve; project = every principle as a step, questions to resolve, caveats.
 */
export function practise<R>(type: ImplementationType, r: Reflection<R>): Artefact<R> {
  // A reflection has a claim unless the capture was all questions; then answering the first one is the practice.
  const lead = r.principles[0] ?? r.claims[0] ?? r.questions[0];
  if (!lead) throw new Error("a reflection always has a claim or a question");
  const caveats = r.counterpoints.map((c) => item("caveat", c));
  const resolve = r.questions.map((q) => item("resolve", q));
  const build = (title: string, items: ArtefactItem<R>[], cadence: string | null = null): Artefact<R> => ({
    type,
    title,
    cadence,
    items: items.slice(0, MAX_ITEMS),
  });
  switch (type) {
    case "principle":
      return build(lead.text, [
        item("statement", lead),
        ...r.claims
          .filter((c) => c !== lead)
          .slice(0, 3)
          .map((c) => item("support", c)),
        ...caveats,
      ]);
    case "rule":
      return build(`Rule: ${lead.text}`, [item("statement", lead), ...caveats]);
    case "checklist":
      return build(
        `Checklist: ${r.title}`,
        [...r.principles, ...r.claims].filter(unique).map((c) => item("check", c)),
      );
    case "habit":
      return build(
        `Habit: ${lead.text}`,
        [{ kind: "cue", text: `When working with "${r.title}"`, ref: null }, item("step", lead)],
        (lead.text.match(CADENCE)?.[1] ?? "daily").toLowerCase(),
      );
    case "task":
      return build(`Apply: ${lead.text}`, [item("step", lead), ...resolve]);
    case "project":
      return build(`Project: ${r.title}`, [
        ...(r.principles.length > 0 ? r.principles : [lead]).map((p) => item("step", p)),
        ...resolve,
        ...caveats,
      ]);
  }
}

function unique<T extends { text: string }>(x: T, i: number, all: readonly T[]): boolean {
  return all.findIndex((y) => y.text === x.text) === i;
}

const LABEL: Record<ItemKind, string> = {
  statement: "",
  support: "Because: ",
  caveat: "Caveat: ",
  step: "",
  check: "[ ] ",
  cue: "Cue: ",
  resolve: "Resolve: ",
};

/** The artefact as a markdown note: what an approved proposal stores in the vault. */
export function renderArtefact<R>(a: Artefact<R>, provenance: string): string {
  const lines = [`# ${a.title.replace(/\s+/g, " ")}`, "", `- Type: ${a.type}`];
  if (a.cadence) lines.push(`- Cadence: ${a.cadence}`);
  lines.push(`- From: ${provenance}`, "");
  for (const i of a.items) lines.push(`- ${LABEL[i.kind]}${i.text.replace(/\s+/g, " ")}`);
  return `${lines.join("\n")}\n`;
}
