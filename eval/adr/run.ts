// `npm run eval -- adr`: field-level accuracy of decision extraction (title, status, decision) on the MADR and adr-tools ADRs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtractedDecision } from "../../src/contract/decisions.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { DecisionService } from "../../src/services/knowledge/decisions.ts";
import { dataFile } from "../paths.ts";
import { progress } from "../progress.ts";
import { provenance, type Provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { textTable } from "../table.ts";
import { readGold, type AdrGold } from "./gold.ts";

export const ADR_SET_NAMES = ["adr"];
const COLLECTIONS = ["madr", "adr-tools"] as const;
const FIELDS = ["title", "status", "decision"] as const;
type Field = (typeof FIELDS)[number];

export interface AdrFileRow {
  collection: string;
  file: string;
  decisions: number;
  correct: Record<Field, boolean>;
  gold: AdrGold;
  predicted: Pick<ExtractedDecision, "title" | "status" | "decision" | "chosen_option"> | null;
}

export interface AdrResult extends Provenance {
  set: "adr";
  files: number;
  /** Share of files whose field matches the gold, per collection and overall. */
  accuracy: Record<string, Record<Field, number> & { n: number }>;
  rows: AdrFileRow[];
}

const norm = (s: string | null | undefined) =>
  (s ?? "").replace(/[*_`]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

/** Title and status must match exactly (whitespace- and case-insensitive, null = null); the decision must match the MADR chosen option or start with the gold Decision paragraph. */
function score(gold: AdrGold, d: ExtractedDecision | undefined): Record<Field, boolean> {
  if (!d) return { title: false, status: false, decision: false };
  const decision =
    gold.style === "madr"
      ? norm(d.chosen_option) === norm(gold.decision)
      : norm(d.decision).startsWith(norm(gold.decision)) && norm(gold.decision) !== "";
  return {
    title: norm(d.title) === norm(gold.title),
    status: (d.status === null) === (gold.status === null) && norm(d.status) === norm(gold.status),
    decision,
  };
}

export function runAdrEval(): AdrResult {
  const service = new DecisionService(systemClock);
  const rows: AdrFileRow[] = [];
  for (const collection of COLLECTIONS) {
    const dir = dataFile("adr", collection);
    if (!existsSync(dir)) throw new Error(`missing ${dir}`);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort()) {
      const content = readFileSync(join(dir, file), "utf8");
      const gold = readGold(content);
      const { decisions } = service.extract({ content, source_path: `${collection}/${file}` });
      const d = decisions[0];
      rows.push({
        collection,
        file,
        decisions: decisions.length,
        correct: score(gold, d),
        gold,
        predicted: d
          ? { title: d.title, status: d.status, decision: d.decision, chosen_option: d.chosen_option }
          : null,
      });
    }
  }
  const accuracy: AdrResult["accuracy"] = {};
  for (const group of [...COLLECTIONS, "all"]) {
    const rs = rows.filter((r) => group === "all" || r.collection === group);
    const rate = (f: Field) => (rs.length ? rs.filter((r) => r.correct[f]).length / rs.length : NaN);
    accuracy[group] = { n: rs.length, title: rate("title"), status: rate("status"), decision: rate("decision") };
  }
  return { set: "adr", ...provenance(), files: rows.length, accuracy, rows };
}

export function runAdrSets(): void {
  const r = runAdrEval();
  const pct = (x: number) => (100 * x).toFixed(1);
  process.stdout.write(
    `${textTable(
      ["collection", "files", "title %", "status %", "decision %"],
      Object.entries(r.accuracy).map(([g, a]) => [g, a.n, pct(a.title), pct(a.status), pct(a.decision)]),
    )}\n`,
  );
  for (const row of r.rows.filter((x) => FIELDS.some((f) => !x.correct[f])))
    progress(`adr miss ${row.collection}/${row.file}: ${FIELDS.filter((f) => !row.correct[f]).join(", ")}`);
  progress(`wrote ${writeResult("adr", r)}`);
}
