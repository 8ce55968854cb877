// The statement detector (src/domain/time/changed-facts.ts) on data it was not written on: the QMSum train meetings,
// each turn a statement and turn order its time. `node --import tsx eval/time/supersession-qmsum.ts`: every find, the
// hand-labelled ones marked (supersession-qmsum-labels.json, a random 40), and the precision over those.
import { labelVerdicts } from "./labels.ts";
import { detectReplacements } from "../../src/domain/time/changed-facts.ts";
import { loadQmsum } from "../qmsum/data.ts";

interface Label {
  meeting: string;
  old: number;
  new: number;
  right: boolean | null;
}
const labelOf = labelVerdicts<Label>(
  "supersession-qmsum-labels.json",
  "finds",
  (l) => `${l.meeting} ${l.old} ${l.new}`,
  (l) => l.right,
);

const tally = { finds: 0, labelled: 0, right: 0, unclear: 0 };
for (const meeting of loadQmsum()) {
  const turns = meeting.transcript.split("\n").map((text, id) => ({ id, text, at: id }));
  for (const r of detectReplacements(turns)) {
    const label = labelOf.get(`${meeting.id} ${r.oldId} ${r.newId}`);
    tally.finds++;
    if (label !== undefined) tally.labelled++;
    if (label === true) tally.right++;
    if (label === null) tally.unclear++;
    const mark = label === undefined ? "" : label === null ? "unclear" : label ? "right" : "wrong";
    const [old, now] = [turns[r.oldId]!.text, turns[r.newId]!.text];
    console.log(`${mark.padEnd(8)} ${meeting.id} turn ${r.oldId} -> ${r.newId}`);
    console.log(`         old: ${old.slice(r.oldSpan.start, r.oldSpan.end).slice(0, 160)}`);
    console.log(`         new: ${now.slice(r.newSpan.start, r.newSpan.end).slice(0, 160)}`);
  }
}
console.log(
  `QMSum: ${tally.finds} finds; labelled ${tally.labelled}: right ${tally.right}, unclear ${tally.unclear}, ` +
    `wrong ${tally.labelled - tally.right - tally.unclear}; precision ${(tally.right / tally.labelled).toFixed(2)}`,
);
