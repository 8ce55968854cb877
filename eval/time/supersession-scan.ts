// Precision of the statement detector (issue 45 item 4): every replacement it finds between the documents of each dev
// vault (LongMemEval sessions, LoCoMo turns), scored against hand labels (supersession-labels.json).
// `node --import tsx eval/time/supersession-scan.ts`: one line per find, then the precision; unlabelled finds are listed.
import { labelVerdicts } from "./labels.ts";
import { detectReplacements } from "../../src/domain/time/changed-facts.ts";
import { loadLocomo } from "../data/locomo.ts";
import { loadLongMemEval } from "../data/longmemeval.ts";

interface Label {
  vault: string;
  old: string;
  new: string;
  correct: boolean | null;
}
const labelOf = labelVerdicts<Label>(
  "supersession-labels.json",
  "pairs",
  (l) => `${l.vault} ${l.old} ${l.new}`,
  (l) => l.correct,
);

let found = 0;
let right = 0;
let unlabelled = 0;
for (const set of [loadLongMemEval(), loadLocomo()]) {
  let inSet = 0;
  for (const vault of set.vaults) {
    const docs = vault.docs.map((d, id) => ({ id, text: d.content, at: Date.parse(d.timestamp ?? "") }));
    for (const r of detectReplacements(docs)) {
      const [old, now] = [vault.docs[r.oldId]!, vault.docs[r.newId]!];
      const label = labelOf.get(`${vault.name} ${old.sourcePath} ${now.sourcePath}`);
      inSet++;
      found++;
      right += label === true ? 1 : 0;
      if (label === undefined) unlabelled++;
      const mark = label === undefined ? "UNLABELLED" : label === null ? "unclear" : label ? "right" : "wrong";
      console.log(`${mark.padEnd(10)} ${vault.name} ${old.sourcePath} -> ${now.sourcePath}`);
      console.log(`           old: ${old.content.slice(r.oldSpan.start, r.oldSpan.end).replace(/\s+/g, " ")}`);
      console.log(`           new: ${now.content.slice(r.newSpan.start, r.newSpan.end).replace(/\s+/g, " ")}`);
    }
  }
  console.log(`${set.name}: ${inSet} replacement(s) found in ${set.vaults.length} vaults`);
}
console.log(`precision ${right} of ${found} (${found ? (right / found).toFixed(2) : "-"}); unlabelled ${unlabelled}`);
