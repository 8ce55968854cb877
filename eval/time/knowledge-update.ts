// LongMemEval knowledge-update (issue 45): does the session holding the latest value rank above the ones it replaced?
// `node --import tsx eval/time/knowledge-update.ts`: default recall (k 50) per question, sessions dated by haystack date,
// then the same with filters.detect_supersession (statements a later one replaced ranked lower); recall_all@5 per group
// for both, so what the detector costs the other groups shows.
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { loadLongMemEval } from "../data/longmemeval.ts";
import { openHarness } from "../harness.ts";
import { ingestSet } from "../ingest.ts";
import { askedAtOf } from "../asked-at.ts";
import { recallAll, uniqueInOrder } from "../metrics.ts";

const set = loadLongMemEval();
const { harness, primary } = await openHarness("knowledge-update", defaultRetrievalConfig);
try {
  const { workspaces } = await ingestSet(primary, set);
  const dateOf = new Map(
    set.vaults.flatMap((v) => v.docs.map((d) => [`${v.name}/${set.unitOf(d.sourcePath)}`, d.timestamp ?? ""])),
  );
  for (const detect of [false, true]) {
    const rows: string[] = [];
    const byGroup = new Map<string, { n: number; all: number }>();
    let asked = 0;
    let latestFirst = 0;
    for (const q of set.queries) {
      const filters = detect ? { detect_supersession: true } : {};
      const res = await primary.memory.recall(workspaces.get(q.vault)!, {
        query: q.text,
        k: set.k,
        filters,
        ...askedAtOf(q),
      });
      const ranked = uniqueInOrder(res.hits.map((h) => set.unitOf(h.source_path)));
      const group = byGroup.get(q.group) ?? { n: 0, all: 0 };
      byGroup.set(q.group, { n: group.n + 1, all: group.all + recallAll(ranked, q.gold, 5) });
      if (q.group !== "knowledge-update") continue;
      const gold = [...q.gold].sort((a, b) =>
        (dateOf.get(`${q.vault}/${b}`) ?? "").localeCompare(dateOf.get(`${q.vault}/${a}`) ?? ""),
      );
      if (gold.length < 2) {
        rows.push(`${q.id}: one answer session, nothing to order`);
        continue;
      }
      const rank = (s: string) => (ranked.includes(s) ? ranked.indexOf(s) : Infinity);
      const ok = gold.slice(1).every((older) => rank(gold[0]!) < rank(older));
      asked++;
      latestFirst += ok ? 1 : 0;
      const olderRanks = gold.slice(1).map((g) => rank(g) + 1);
      rows.push(
        `${q.id}: latest at rank ${rank(gold[0]!) + 1}, older at ${olderRanks.join(", ")}: ${ok ? "above" : "not above"}`,
      );
    }
    const mode = detect ? " (detect_supersession)" : "";
    console.log(rows.join("\n"));
    console.log(
      `knowledge-update${mode}: latest value's session above the ones it replaced in ${latestFirst} of ${asked} questions`,
    );
    const groups = [...byGroup].sort(([a], [b]) => a.localeCompare(b));
    console.log(`recall_all@5${mode}: ${groups.map(([g, r]) => `${g} ${r.all} of ${r.n}`).join("; ")}`);
  }
} finally {
  await harness.close();
}
