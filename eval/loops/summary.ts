// The open-loop lines of eval/results/summary.md (open-loops.json).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir } from "../paths.ts";
import type { Provenance } from "../provenance.ts";
import type { LoopScore } from "./score.ts";

interface LoopResult extends Provenance {
  labelled: LoopScore;
  held_out: LoopScore;
  adr: { files: number; flagged: number };
  qmsum: {
    meetings: number;
    turns: number;
    flagged: number;
    flagged_in_action_spans: number;
    action_queries: number;
    action_queries_with_a_flag: number;
  };
}

export function loopSummaryLines(): string[] {
  const file = join(resultsDir, "open-loops.json");
  if (!existsSync(file)) return [];
  const r = JSON.parse(readFileSync(file, "utf8")) as LoopResult;
  const l = r.labelled;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `## Open loops (\`npm run eval -- open-loops\`, ${r.commit}${r.dirtySrc ? "+" : ""} ${r.date.slice(0, 10)})`,
    "",
    `Labelled notes (eval/data/open-loops-labelled.ts, ${l.notes} notes, ${l.gold} loops): precision ${pct(l.precision)}, recall ${pct(l.recall)}, owner ${l.owner_accuracy.right}/${l.owner_accuracy.n}, due ${l.due_accuracy.right}/${l.due_accuracy.n}; held out (eval/data/open-loops-held-out.ts, labelled after the rules froze, ${r.held_out.gold} loops): precision ${pct(r.held_out.precision)}, recall ${pct(r.held_out.recall)}. ` +
      `Decided ADRs: ${r.adr.flagged} flagged in ${r.adr.files} (every flag would be false). QMSum: ${r.qmsum.flagged} of ${r.qmsum.turns} turns flagged in ${r.qmsum.meetings} meetings; ${r.qmsum.action_queries_with_a_flag} of ${r.qmsum.action_queries} action-item queries have a flag in their gold span.`,
    "",
  ];
}
