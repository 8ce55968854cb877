// Open-loop detection scored against the labelled notes: line precision and recall, owner and due accuracy. Pure.
import { findOpenLoops, type LoopDraft } from "../../src/domain/knowledge/open-loops.ts";
import type { LabelledNote } from "../data/open-loops-labelled.ts";

export interface LoopScore {
  notes: number;
  gold: number;
  found: number;
  correct: number;
  precision: number;
  recall: number;
  /** Among gold loops that state an owner (due date) and were found: share whose owner (due) was read right. */
  owner_accuracy: { n: number; right: number };
  due_accuracy: { n: number; right: number };
  misses: string[];
  false_alarms: string[];
}

const lineOf = (content: string, l: LoopDraft) => content.slice(l.start, l.end);

export function scoreLabelled(notes: readonly LabelledNote[]): LoopScore {
  const s: LoopScore = {
    notes: notes.length,
    gold: 0,
    found: 0,
    correct: 0,
    precision: 0,
    recall: 0,
    owner_accuracy: { n: 0, right: 0 },
    due_accuracy: { n: 0, right: 0 },
    misses: [],
    false_alarms: [],
  };
  for (const note of notes) {
    const found = findOpenLoops(note.content);
    s.gold += note.open.length;
    s.found += found.length;
    const matched = new Set<LoopDraft>();
    for (const g of note.open) {
      const hit = found.find((l) => lineOf(note.content, l).includes(g.line));
      if (!hit) {
        s.misses.push(`${note.name}: ${g.line}`);
        continue;
      }
      matched.add(hit);
      s.correct++;
      if (g.owner)
        [s.owner_accuracy.n, s.owner_accuracy.right] = [
          s.owner_accuracy.n + 1,
          s.owner_accuracy.right + (hit.owner === g.owner ? 1 : 0),
        ];
      if (g.due)
        [s.due_accuracy.n, s.due_accuracy.right] = [
          s.due_accuracy.n + 1,
          s.due_accuracy.right + (hit.due === g.due ? 1 : 0),
        ];
    }
    for (const l of found) if (!matched.has(l)) s.false_alarms.push(`${note.name}: ${lineOf(note.content, l)}`);
  }
  s.precision = s.found ? s.correct / s.found : 1;
  s.recall = s.gold ? s.correct / s.gold : 1;
  return s;
}
