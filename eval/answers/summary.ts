// The grounded-answer section of eval/results/summary.md (xquad.json, locomo-answers.json).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir } from "../paths.ts";
import { markdownTable } from "../table.ts";
import type { AnswerSetResult } from "./run.ts";

function read(name: string): AnswerSetResult | null {
  const file = join(resultsDir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as AnswerSetResult) : null;
}

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : (100 * x).toFixed(1));
const stamp = (r: AnswerSetResult) => `${r.commit}${r.dirtySrc ? "+" : ""} ${r.date.slice(0, 10)}`;

export function answerSummaryLines(): string[] {
  const x = read("xquad");
  const l = read("locomo-answers");
  if (!x && !l) return [];
  const lines = [
    "## Grounded answers (`npm run eval -- xquad locomo-answers`)",
    "",
    "Through `grounded.answer` at the default threshold; figures in %. test = held out from every tuning choice (eval/answers/README.md).",
    "",
  ];
  if (x) {
    const rows = (["test", "all"] as const).map((s) => {
      const m = x.atThreshold[s]!;
      const band = x.f1Interval?.[s]?.f1;
      return [
        s,
        m.n ?? 0,
        x.config.answerThreshold,
        pct(m.abstention),
        pct(m.span_hit),
        pct(m.em),
        pct(m.f1),
        band ? `${pct(band[0])}-${pct(band[1])}` : "",
        pct(m.f1_answered),
        pct(x.noAbstention[s]!.f1),
        stamp(x),
      ];
    });
    lines.push(
      "### XQuAD (en)",
      "",
      markdownTable(
        [
          "split",
          "questions",
          "threshold",
          "abstention",
          "gold in top cited span",
          "EM",
          "F1",
          "F1 95% interval (articles resampled)",
          "F1 answered",
          "F1 never abstaining",
          "commit / date",
        ],
        rows,
      ),
      "",
    );
    lines.push(
      `Reference (SQuAD v1.1 paper, given the gold paragraph): ${x.references.map((r) => `${r.label.replace(/ \(SQuAD v1.1 paper\)/, "")} F1 ${(100 * r.value).toFixed(1)}`).join("; ")}.`,
      "",
    );
  }
  if (l) {
    const rows = (["test", "all"] as const).map((s) => {
      const m = l.atThreshold[s]!;
      return [
        s,
        m.n_1_4 ?? 0,
        m.n_5 ?? 0,
        l.config.answerThreshold,
        pct(m.false_abstention),
        pct(m.contained_spans),
        pct(m.contained_answer),
        pct(m.top_cite_evidence_answered),
        pct(m.correct_abstention_5),
        pct(m.extractable),
        stamp(l),
      ];
    });
    lines.push(
      "### LoCoMo answers",
      "",
      markdownTable(
        [
          "split",
          "cat. 1-4",
          "cat. 5",
          "threshold",
          "false abstention 1-4",
          "gold in cited spans",
          "gold in answer",
          "answered: top cite is evidence",
          "correct abstention 5",
          "gold extractable at all",
          "commit / date",
        ],
        rows,
      ),
      "",
    );
  }
  return lines;
}
