// The meeting-extraction section of eval/results/summary.md (qmsum.json).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir } from "../paths.ts";
import { markdownTable } from "../table.ts";
import type { QmsumResult } from "./run.ts";

const pct = (x: number) => (Number.isNaN(x) ? "" : (100 * x).toFixed(1));

export function qmsumSummaryLines(): string[] {
  const file = join(resultsDir, "qmsum.json");
  if (!existsSync(file)) return [];
  const r = JSON.parse(readFileSync(file, "utf8")) as QmsumResult;
  const rows = (["test", "tune", "all"] as const).flatMap((g) =>
    (["decision", "action"] as const).map((kind) => {
      const { smriti, random } = r.results[g][kind];
      return [
        g,
        kind,
        smriti.queries,
        smriti.items,
        pct(smriti.hitRate),
        pct(random.hitRate),
        pct(smriti.precision),
        pct(random.precision),
        pct(smriti.coverage),
      ];
    }),
  );
  return [
    `## Meeting extraction (\`npm run eval -- qmsum\`, ${r.commit}${r.dirtySrc ? "+" : ""} ${r.date.slice(0, 10)})`,
    "",
    `${r.meetings} QMSum train meetings; queries about decisions / actions (eval/qmsum/README.md). hit = the query's gold span holds a turn cited by an item of that kind; precision = items citing a turn inside a gold span of that kind in their meeting; random = as many items citing as many turns drawn uniformly (mean of ${r.randomDraws} seeded draws). test = held out from every cue choice. Figures in %.`,
    "",
    markdownTable(
      ["split", "kind", "queries", "items", "hit", "random hit", "precision", "random precision", "gold coverage"],
      rows,
    ),
    "",
  ];
}
