// Where recall's current-value preference (src/services/memory/current-first.ts) acts on the dev sets, for labelling:
// every question it reorders, with the statements it put newest first (date, speaker, the value's sentence) and
// whether gold evidence is among them. `node --import tsx eval/time/current-first-scan.ts`; labels: current-first-labels.json.
import { labelVerdicts } from "./labels.ts";
import { askedValue, asksPresentState } from "../../src/domain/time/current-values.ts";
import { claimsOf } from "../../src/domain/time/changed-facts.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { loadLocomo } from "../data/locomo.ts";
import { loadLongMemEval } from "../data/longmemeval.ts";
import { openHarness } from "../harness.ts";
import { ingestSet } from "../ingest.ts";
import { askedAtOf } from "../asked-at.ts";

interface Label {
  set: string;
  query: string;
  right: boolean | null;
  why: string;
}
const labelOf = labelVerdicts<Label>(
  "current-first-labels.json",
  "orders",
  (l) => `${l.set} ${l.query}`,
  (l) => l.right,
);

const tally = { present: 0, valued: 0, asked: 0, moved: 0, right: 0, wrong: 0, unclear: 0, unlabelled: 0 };
for (const set of [loadLongMemEval(), loadLocomo()]) {
  const { harness, primary } = await openHarness(`current-first-${set.name}`, defaultRetrievalConfig);
  try {
    const { workspaces } = await ingestSet(primary, set);
    for (const q of set.queries) {
      tally.asked++;
      if (asksPresentState(q.text)) tally.present++;
      if (askedValue(q.text)) tally.valued++;
      const res = await primary.memory.recall(workspaces.get(q.vault)!, {
        query: q.text,
        k: set.k,
        explain: true,
        ...askedAtOf(q),
      });
      const moved = res.hits.flatMap((h, i) =>
        res.explain?.[i]?.contributions["current"] ? [{ h, rank: i + 1 }] : [],
      );
      if (moved.length === 0) continue;
      tally.moved++;
      const label = labelOf.get(`${set.name} ${q.id}`);
      const mark = label === undefined ? "UNLABELLED" : label === null ? "unclear" : label ? "right" : "wrong";
      tally[label === undefined ? "unlabelled" : label === null ? "unclear" : label ? "right" : "wrong"]++;
      console.log(`${mark.padEnd(10)} ${set.name} ${q.id} [${q.group}] ${q.text}`);
      const valueOf = askedValue(q.text)!;
      for (const { h, rank } of moved) {
        const sentence = claimsOf(h.text_span).find((c) => valueOf(h.text_span.slice(c.start, c.end)))!;
        const gold = q.gold.has(set.unitOf(h.source_path)) ? " (gold)" : "";
        const said = h.occurred_at?.slice(0, 10) ?? "?";
        const text = h.text_span.slice(sentence.start, sentence.end).replace(/\s+/g, " ").slice(0, 220);
        console.log(`           #${rank} ${said}${gold} ${valueOf(h.text_span)!.value}: ${text}`);
      }
    }
  } finally {
    await harness.close();
  }
}
const judged = tally.right + tally.wrong;
console.log(
  `questions ${tally.asked}, about the present ${tally.present}, of a value's present state ${tally.valued}, reordered ${tally.moved}: right ${tally.right}, ` +
    `wrong ${tally.wrong}, unclear ${tally.unclear}, unlabelled ${tally.unlabelled}; precision ${judged ? (tally.right / judged).toFixed(2) : "-"}`,
);
