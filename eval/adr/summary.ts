// The decision-extraction line of eval/results/summary.md (adr.json).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir } from "../paths.ts";
import type { AdrResult } from "./run.ts";

export function adrSummaryLines(): string[] {
  const file = join(resultsDir, "adr.json");
  if (!existsSync(file)) return [];
  const r = JSON.parse(readFileSync(file, "utf8")) as AdrResult;
  const pct = (x: number | undefined) => (x === undefined ? "" : `${(100 * x).toFixed(1)}%`);
  const part = (g: string) => {
    const a = r.accuracy[g];
    return a ? `${g} (${a.n} files): title ${pct(a.title)}, status ${pct(a.status)}, decision ${pct(a.decision)}` : "";
  };
  return [
    `## Decision extraction (\`npm run eval -- adr\`, ${r.commit}${r.dirtySrc ? "+" : ""} ${r.date.slice(0, 10)})`,
    "",
    `Field-level accuracy against each ADR's own sections (eval/adr/gold.ts): ${["all", "madr", "adr-tools"].map(part).filter(Boolean).join("; ")}.`,
    "",
  ];
}
