// Open loops as people write them (issue 40 item 3): open questions, TBD, unresolved, unchecked boxes, items under
// Open questions / Next steps / Risks, with owner and due date; measured on the labelled notes in eval/data.
import { describe, expect, it } from "vitest";
import { findOpenLoops } from "../../src/domain/knowledge/open-loops.ts";
import { asksWhatIsOpen } from "../../src/domain/text/question-intent.ts";
import { LABELLED_NOTES } from "../../eval/data/open-loops-labelled.ts";
import { scoreLabelled } from "../../eval/loops/score.ts";

const texts = (content: string) =>
  findOpenLoops(content).map((l) => [l.marker, content.slice(l.start, l.end), l.owner, l.due]);

describe("findOpenLoops reads the note styles people write", () => {
  it("finds the tour's open question", () => {
    const note =
      "# Infrastructure\n\nThe staging cluster moves to eu-west-2 on Monday.\n\nOpen question: who pays for the extra brokers?\n";
    expect(texts(note)).toEqual([["QUESTION", "Open question: who pays for the extra brokers?", null, null]]);
  });

  it("reads sections: questions and items under Open questions and Next steps, only questions under Risks, nothing in prose", () => {
    const note = [
      "# RFC",
      "",
      "Why now? Polling is slow.",
      "",
      "## Open questions",
      "",
      "- Retention: 90 days or a year?",
      "- Schema registry choice",
      "",
      "## Risks",
      "",
      "- Broker operations are new",
      "- What if a consumer lags a week?",
      "",
      "Next steps:",
      "- Priya to update the pricing page by Friday",
      "",
      "Budget is approved.",
    ].join("\n");
    expect(texts(note)).toEqual([
      ["QUESTION", "- Retention: 90 days or a year?", null, null],
      ["SECTION", "- Schema registry choice", null, null],
      ["QUESTION", "- What if a consumer lags a week?", null, null],
      ["SECTION", "- Priya to update the pricing page by Friday", "Priya", "Friday"],
    ]);
  });

  it("reads TBD, FIXME, unresolved and unchecked boxes with @owners and due dates; resolved lines are left out", () => {
    const note =
      "Sampling rate: TBD.\n// FIXME(maria): swallows AbortError\nHosting is still unresolved.\n- [ ] Run the load test @dmitri (due 2024-06-10)\n- [ ] ~~Ship the flag~~ dropped\n- [x] Cut the branch\n";
    expect(texts(note)).toEqual([
      ["TBD", "Sampling rate: TBD.", null, null],
      ["FIXME", "// FIXME(maria): swallows AbortError", "maria", null],
      ["UNRESOLVED", "Hosting is still unresolved.", null, null],
      ["CHECKBOX", "- [ ] Run the load test @dmitri (due 2024-06-10)", "dmitri", "2024-06-10"],
    ]);
  });

  it("scores at least 0.9 precision and recall on the labelled notes, reading owners and due dates", () => {
    const s = scoreLabelled(LABELLED_NOTES);
    expect(s.gold).toBeGreaterThanOrEqual(20);
    expect({
      precision: s.precision >= 0.9,
      recall: s.recall >= 0.9,
      misses: s.misses,
      false_alarms: s.false_alarms.length <= 2,
    }).toEqual({ precision: true, recall: true, misses: [], false_alarms: true });
    expect(s.owner_accuracy.right).toBe(s.owner_accuracy.n);
    expect(s.due_accuracy.right).toBe(s.due_accuracy.n);
  });
});

describe("asksWhatIsOpen", () => {
  it("knows questions about what is open, pending or undecided from questions that only use the word", () => {
    for (const q of [
      "What is still open?",
      "What's pending?",
      "Anything undecided?",
      "What are the open questions?",
      "What are the next steps?",
      "Which issues remain unresolved?",
    ])
      expect(asksWhatIsOpen(q), q).toBe(true);
    for (const q of [
      "Who picked PostgreSQL?",
      "Is the office open on Sunday?",
      "Who opened the ticket?",
      "Is open source allowed?",
      "Where is the staging cluster moving?",
    ])
      expect(asksWhatIsOpen(q), q).toBe(false);
  });
});
