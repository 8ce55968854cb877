// LongMemEval knowledge-update (issue 45): does the session holding the latest value rank above the ones it replaced?
// `node --import tsx eval/time/knowledge-update.ts`: default recall (k 50) per question, sessions dated by haystack date.
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { loadLongMemEval } from "../data/longmemeval.ts";
import { openHarness } from "../harness.ts";
import { ingestSet } from "../ingest.ts";
import { uniqueInOrder } from "../metrics.ts";

const set = loadLongMemEval();
const { harness, primary } = await openHarness("knowledge-update", defaultRetrievalConfig);
try {
  const { workspaces } = await ingestSet(primary, set);
  const dateOf = new Map(
    set.vaults.flatMap((v) => v.docs.map((d) => [`${v.name}/${set.unitOf(d.sourcePath)}`, d.timestamp ?? ""])),
  );
  const rows: string[] = [];
  let asked = 0;
  let latestFirst = 0;
  for (const q of set.queries.filter((x) => x.group === "knowledge-update")) {
    const gold = [...q.gold].sort((a, b) =>
      (dateOf.get(`${q.vault}/${b}`) ?? "").localeCompare(dateOf.get(`${q.vault}/${a}`) ?? ""),
    );
    if (gold.length < 2) {
      rows.push(`${q.id}: one answer session, nothing to order`);
      continue;
    }
    const res = await primary.memory.recall(workspaces.get(q.vault)!, { query: q.text, k: set.k });
    const ranked = uniqueInOrder(res.hits.map((h) => set.unitOf(h.source_path)));
    const rank = (s: string) => (ranked.includes(s) ? ranked.indexOf(s) : Infinity);
    const ok = gold.slice(1).every((older) => rank(gold[0]!) < rank(older));
    asked++;
    latestFirst += ok ? 1 : 0;
    rows.push(
      `${q.id}: latest at rank ${rank(gold[0]!) + 1}, older at ${gold
        .slice(1)
        .map((g) => rank(g) + 1)
        .join(", ")}: ${ok ? "above" : "not above"}`,
    );
  }
  console.log(rows.join("\n"));
  console.log(
    `knowledge-update: latest value's session above the ones it replaced in ${latestFirst} of ${asked} questions`,
  );
} finally {
  await harness.close();
}
