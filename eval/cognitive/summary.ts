// The cognitive-stack section of eval/results/summary.md: the ablation table, the stress table and the tuner's decisions.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { StressCase, TunerDecision } from "../../src/cognitive/records.ts";
import { resultsDir } from "../paths.ts";
import { markdownTable } from "../table.ts";
import type { AblationRow } from "./ablation.ts";

interface Stamped {
  commit: string;
  dirtySrc: boolean;
  date: string;
}

function read<T>(name: string): (T & Stamped) | null {
  const file = join(resultsDir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T & Stamped) : null;
}

const stamp = (r: Stamped) => `${r.commit}${r.dirtySrc ? "+" : ""} ${r.date.slice(0, 10)}`;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

export function cognitiveSummaryLines(): string[] {
  const lines: string[] = [];
  const a = read<{ metrics: string[]; rows: AblationRow[] }>("ablation");
  if (a) {
    const base = a.rows[0]!.means;
    lines.push(
      `## Cognitive stack ablation (\`npm run eval -- ablation\`, ${stamp(a)})`,
      "",
      "Every layer on, then each layer off; in brackets the uplift (all on minus that row). `changed` = queries whose value moved.",
      "",
    );
    lines.push(
      markdownTable(
        ["config", ...a.metrics],
        a.rows.map((r) => [
          r.name,
          ...a.metrics.map((m) =>
            r.off
              ? `${r.means[m]!.toFixed(3)} (${signed(base[m]! - r.means[m]!)}; ${r.changed[m]} changed)`
              : r.means[m]!.toFixed(3),
          ),
        ]),
      ),
      "",
    );
  }
  const st = read<{ cases: StressCase[] }>("stress");
  if (st) {
    lines.push(
      `## Cognitive stack stress (\`npm run eval -- stress\`, ${stamp(st)})`,
      "",
      "LoCoMo perturbed for one layer's job each (eval/README.md); on = shipped defaults, off = that layer off, unperturbed = the defaults on the unperturbed questions.",
      "",
    );
    lines.push(
      markdownTable(
        ["perturbation", "layer", "metric", "queries", "unperturbed", "on", "off", "uplift", "changed"],
        st.cases.map((c) => [
          c.id,
          c.layer,
          c.metric,
          String(c.queries),
          c.unperturbed.toFixed(3),
          c.on.toFixed(3),
          c.off.toFixed(3),
          signed(c.uplift),
          String(c.changed),
        ]),
      ),
      "",
    );
  }
  const t = read<{
    metrics: string[];
    baseline: { heldIn: number; heldOut: number };
    final: { heldIn: number; heldOut: number };
    decisions: TunerDecision[];
  }>("tuner");
  if (t) {
    lines.push(
      `## Tuner (\`npm run eval -- tune\`, ${stamp(t)})`,
      "",
      `Held-in = even query indices (decides), held-out = odd (reported): mean of ${t.metrics.join(", ")}.`,
      "",
    );
    lines.push(
      markdownTable(
        [
          "layer",
          "parameter",
          "before",
          "after",
          "held-in before",
          "held-in after",
          "held-out before",
          "held-out after",
          "kept",
        ],
        t.decisions.map((d) => [
          d.layer,
          d.parameter,
          String(d.before),
          String(d.after),
          d.held_in_before,
          d.held_in_after,
          d.held_out_before ?? "",
          d.held_out_after ?? "",
          d.kept ? "yes" : "no",
        ]),
      ),
      "",
      `Held-in ${t.baseline.heldIn.toFixed(4)} -> ${t.final.heldIn.toFixed(4)}; held-out ${t.baseline.heldOut.toFixed(4)} -> ${t.final.heldOut.toFixed(4)}.`,
      "",
    );
  }
  return lines;
}
