// `npm run eval -- ablation`: every layer on, then each layer off (and all off), on the headline metrics; uplift = on - off.
import { loadConfig } from "../../src/config.ts";
import { LAYER_IDS, type LayerId } from "../../src/contract/cognitive-layers.ts";
import {
  defaultCognitiveConfig,
  OFF_BY_DEFAULT,
  withSwitches,
  type CognitiveConfig,
} from "../../src/cognitive/params.ts";
import { recordAblation, type AblationFigures } from "../../src/cognitive/records.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { textTable } from "../table.ts";
import { ABLATION_METRICS, meanOf, openMeasuredSets, type MeasuredSet, type PerQuery } from "./sets.ts";

const allOn: CognitiveConfig = withSwitches(
  defaultCognitiveConfig,
  Object.fromEntries(LAYER_IDS.map((id) => [id, true])),
);
const allOff: CognitiveConfig = withSwitches(
  defaultCognitiveConfig,
  Object.fromEntries(LAYER_IDS.map((id) => [id, false])),
);

export interface AblationRow {
  name: string;
  off: LayerId | "all" | "defaults" | null;
  means: Record<string, number>;
  /** Queries whose value differs from all-on, per metric. */
  changed: Record<string, number>;
}

async function measure(sets: readonly MeasuredSet[], config: CognitiveConfig): Promise<PerQuery> {
  const out: PerQuery = {};
  for (const s of sets) Object.assign(out, await s.measure(config));
  return out;
}

function row(name: string, off: AblationRow["off"], per: PerQuery, base: PerQuery | null): AblationRow {
  const means = Object.fromEntries(ABLATION_METRICS.map((m) => [m, meanOf(per[m] ?? [])]));
  const changed = Object.fromEntries(
    ABLATION_METRICS.map((m) => [m, base ? (per[m] ?? []).filter((v, i) => !Object.is(v, base[m]?.[i])).length : 0]),
  );
  return { name, off, means, changed };
}

export async function runAblation(): Promise<void> {
  const sets = await openMeasuredSets();
  try {
    const wall = performance.now();
    progress("ablation: all layers on");
    const on = await measure(sets, allOn);
    const rows: AblationRow[] = [row("all on", null, on, null)];
    for (const id of LAYER_IDS) {
      progress(`ablation: ${id} off`);
      rows.push(row(`${id} off`, id, await measure(sets, withSwitches(allOn, { [id]: false })), on));
    }
    progress("ablation: all off");
    rows.push(row("all off", "all", await measure(sets, allOff), on));
    progress("ablation: shipped defaults");
    rows.push(
      row(
        `defaults (off: ${OFF_BY_DEFAULT.join(", ") || "none"})`,
        "defaults",
        await measure(sets, defaultCognitiveConfig),
        on,
      ),
    );
    const base = rows[0]!.means;
    const uplift = Object.fromEntries(
      rows
        .filter((r) => r.off && r.off !== "all" && r.off !== "defaults")
        .map((r) => [r.off!, Object.fromEntries(ABLATION_METRICS.map((m) => [m, round(base[m]! - r.means[m]!)]))]),
    );
    const prov = provenance();
    const result = {
      ...prov,
      metrics: ABLATION_METRICS,
      params: allOn.params,
      defaults: defaultCognitiveConfig.enabled,
      rows,
      uplift,
      wallMs: Math.round(performance.now() - wall),
    };
    print(rows);
    progress(`wrote ${writeResult("ablation", result)}`);
    const figures: AblationFigures = {
      run_id: `ablation-${prov.date}`,
      commit: prov.commit,
      metrics: ABLATION_METRICS,
      all_on: Object.fromEntries(ABLATION_METRICS.map((m) => [m, round(base[m]!)])),
      uplift,
      off: Object.fromEntries(
        rows
          .filter((r) => r.off)
          .map((r) => [String(r.off), Object.fromEntries(ABLATION_METRICS.map((m) => [m, round(r.means[m]!)]))]),
      ),
    };
    await recordInDataDir((store) => recordAblation(store.cognitive, Date.now(), figures));
  } finally {
    for (const s of sets) await s.close();
  }
}

/** Appends to the store the service reads (SMRITI_DATA_DIR, default ./data), so the uplift route serves the figures. */
export async function recordInDataDir(
  write: (store: ReturnType<typeof openSqliteStore>) => Promise<void>,
): Promise<void> {
  const config = loadConfig({ ...process.env });
  const store = openSqliteStore(config.dbFile);
  try {
    await write(store);
    progress(`recorded in ${config.dbFile}`);
  } finally {
    await store.close();
  }
}

function print(rows: readonly AblationRow[]): void {
  const base = rows[0]!.means;
  const cell = (r: AblationRow, m: string) =>
    r.off ? `${r.means[m]!.toFixed(3)} (${signed(base[m]! - r.means[m]!)})` : r.means[m]!.toFixed(3);
  process.stdout.write(
    `\n== cognitive ablation (in brackets: uplift = all on - this row)\n${textTable(
      ["config", ...ABLATION_METRICS],
      rows.map((r) => [r.name, ...ABLATION_METRICS.map((m) => cell(r, m))]),
    )}\n`,
  );
}

const round = (x: number) => Number(x.toFixed(4));
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
