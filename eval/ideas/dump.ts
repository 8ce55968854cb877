// Diagnosis aid: every query of a set through memory.recall (k 100, explain) with the default, as JSON lines, and the
// set's documents beside them: `node --import tsx eval/ideas/dump.ts locomo [out.jsonl]` (default: the temp dir);
// SMRITI_IDEA=<name> dumps that idea of eval/ideas/variants.ts instead.
import { askedAtOf } from "../asked-at.ts";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { SETS } from "../data/index.ts";
import { prepareSet } from "../run-set.ts";
import { IDEAS } from "./variants.ts";

const name = process.argv[2] ?? "locomo";
const out = process.argv[3] ?? join(tmpdir(), `${name}-recall.jsonl`);
const set = SETS[name]!();
const run = await prepareSet(set);
const idea = process.env["SMRITI_IDEA"];
const rt = await run.harness.runtime(idea ? IDEAS.find((i) => i.name === idea)!.retrieval : defaultRetrievalConfig);
const lines: string[] = [];
for (const q of set.queries) {
  const res = await rt.memory.recall(run.workspaces.get(q.vault)!, {
    query: q.text,
    k: 100,
    mode: "hybrid",
    explain: true,
    ...askedAtOf(q),
  });
  lines.push(
    JSON.stringify({
      id: q.id,
      vault: q.vault,
      group: q.group,
      text: q.text,
      gold: [...q.gold],
      hits: res.hits.map((h, i) => ({ u: set.unitOf(h.source_path), s: h.score, x: res.explain?.[i] })),
    }),
  );
}
writeFileSync(out, lines.join("\n") + "\n");
writeFileSync(
  `${out}.vaults.json`,
  JSON.stringify(
    set.vaults.map((v) => ({
      name: v.name,
      docs: v.docs.map((d) => [set.unitOf(d.sourcePath), d.content, d.timestamp]),
    })),
  ),
);
await run.harness.close();
