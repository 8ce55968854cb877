// `npm run eval -- open-loops`: open-loop detection on the labelled notes (precision, recall, owner, due), and what it
// flags on public data: the accepted ADRs (decided records: every flag is a false alarm) and QMSum transcripts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findOpenLoops } from "../../src/domain/knowledge/open-loops.ts";
import { HELD_OUT_NOTES } from "../data/open-loops-held-out.ts";
import { LABELLED_NOTES } from "../data/open-loops-labelled.ts";
import { dataFile } from "../paths.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { loadQmsum } from "../qmsum/data.ts";
import { writeResult } from "../report.ts";
import { textTable } from "../table.ts";
import { scoreLabelled } from "./score.ts";

export const LOOP_SET_NAMES = ["open-loops"];

/** Lines flagged in the ADRs whose status is accepted (or unstated, as Nygard's records are): a decided record has no open loop. */
function adrFlags() {
  const flags: { file: string; text: string }[] = [];
  let files = 0;
  for (const collection of ["madr", "adr-tools"]) {
    const dir = dataFile("adr", collection);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort()) {
      const content = readFileSync(join(dir, file), "utf8");
      if (/status:?\s*(?:proposed|draft)/i.test(content)) continue;
      files++;
      for (const l of findOpenLoops(content))
        flags.push({ file: `${collection}/${file}`, text: content.slice(l.start, l.end) });
    }
  }
  return { files, flagged: flags.length, flags };
}

/** QMSum turns flagged, and how many lie inside a gold span of an action-item / next-steps query. */
function qmsumFlags() {
  let [turns, flagged, inAction, actionQueries, actionQueriesHit] = [0, 0, 0, 0, 0];
  const sample: string[] = [];
  for (const m of loadQmsum()) {
    turns += m.turns;
    const lines = m.transcript.split("\n");
    const hits = new Set(findOpenLoops(m.transcript).map((l) => l.line - 1));
    flagged += hits.size;
    const actions = m.queries.filter((q) => q.kinds.includes("action"));
    const inSpan = (t: number) => actions.some((q) => q.spans.some(([a, b]) => t >= a && t <= b));
    for (const t of hits) {
      if (inSpan(t)) inAction++;
      if (sample.length < 15) sample.push(`${m.id}#${t}: ${(lines[t] ?? "").slice(0, 160)}`);
    }
    actionQueries += actions.length;
    actionQueriesHit += actions.filter((q) => q.spans.some(([a, b]) => [...hits].some((t) => t >= a && t <= b))).length;
  }
  return {
    meetings: loadQmsum().length,
    turns,
    flagged,
    flagged_in_action_spans: inAction,
    action_queries: actionQueries,
    action_queries_with_a_flag: actionQueriesHit,
    sample,
  };
}

export function runLoopSets(): void {
  const labelled = scoreLabelled(LABELLED_NOTES);
  const heldOut = scoreLabelled(HELD_OUT_NOTES);
  const adr = adrFlags();
  const qmsum = qmsumFlags();
  const pct = (x: number) => (100 * x).toFixed(1);
  process.stdout.write(
    `\nopen loops\n${textTable(
      ["data", "n", "gold", "found", "precision %", "recall %", "owner right", "due right"],
      [
        [
          "labelled notes (eval/data)",
          labelled.notes,
          labelled.gold,
          labelled.found,
          pct(labelled.precision),
          pct(labelled.recall),
          `${labelled.owner_accuracy.right}/${labelled.owner_accuracy.n}`,
          `${labelled.due_accuracy.right}/${labelled.due_accuracy.n}`,
        ],
        [
          "held-out notes (labelled after)",
          heldOut.notes,
          heldOut.gold,
          heldOut.found,
          pct(heldOut.precision),
          pct(heldOut.recall),
          `${heldOut.owner_accuracy.right}/${heldOut.owner_accuracy.n}`,
          `${heldOut.due_accuracy.right}/${heldOut.due_accuracy.n}`,
        ],
        ["ADRs, decided (gold: none open)", adr.files, 0, adr.flagged, "-", "-", "-", "-"],
        [`QMSum turns (${qmsum.meetings} meetings)`, qmsum.turns, "-", qmsum.flagged, "-", "-", "-", "-"],
      ],
    )}\n`,
  );
  progress(
    `wrote ${writeResult("open-loops", { set: "open-loops", ...provenance(), labelled, held_out: heldOut, adr, qmsum })}`,
  );
}
