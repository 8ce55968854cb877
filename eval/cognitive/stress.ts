// `npm run eval -- stress`: perturbed LoCoMo, each perturbation aimed at one layer's job; shipped defaults vs that layer off.
import type { LayerId } from "../../src/contract/cognitive-layers.ts";
import { defaultCognitiveConfig, withSwitches, type CognitiveConfig } from "../../src/cognitive/params.ts";
import { recordStress, type StressCase } from "../../src/cognitive/records.ts";
import { isNearDuplicate, numberTerms } from "../../src/domain/retrieval/similarity.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { CallContext } from "../../src/ports/call-context.ts";
import { feedbackCases, tuneFromFeedback } from "../../src/services/cognitive/feedback-tuning.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { loadLocomo, locomoSpeakers } from "../data/locomo.ts";
import { recallAt, uniqueInOrder } from "../metrics.ts";
import { progress } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { prepareSet, type SetRun } from "../run-set.ts";
import { textTable } from "../table.ts";
import type { EvalQuery, EvalSet } from "../types.ts";
import { recordInDataDir } from "./ablation.ts";
import { meanOf } from "./sets.ts";
import {
  exportPairs,
  firstPersonQueries,
  isFeedbackQuery,
  stressRng,
  withExportCopies,
  withInvisibles,
} from "./stress-data.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

// What a caller asking for ten hits sees: with duplicates stored, copies of one turn take several of those ten slots.
const K = 10;
const RECALL = "recall@10";
const PACK = "pack recall";

/** One question as asked: its text and, for first-person questions, who asks. */
interface Ask {
  q: EvalQuery;
  text: string;
  actorId?: string;
}

const callOf = (ws: string, vault: string, actorId: string | null): CallContext => ({
  workspaceId: ws,
  workspaceName: vault,
  tokenId: "eval-stress",
  actorId,
  scopes: ALL_SCOPES,
});

const runtimeOf = (run: SetRun, config: CognitiveConfig): Promise<FullRuntime> =>
  run.harness.runtime(defaultRetrievalConfig, config);

const off = (layer: LayerId): CognitiveConfig => withSwitches(defaultCognitiveConfig, { [layer]: false });

/** recall@10 over distinct turns among the first ten hits, per question. */
async function recallOf(runtime: FullRuntime, run: SetRun, asks: readonly Ask[]): Promise<number[]> {
  const out: number[] = [];
  for (const a of asks) {
    const ws = run.workspaces.get(a.q.vault)!;
    const res = await runtime.memory.recall(
      ws,
      { query: a.text, k: K, mode: "hybrid" },
      { call: callOf(ws, a.q.vault, a.actorId ?? null) },
    );
    out.push(recallAt(uniqueInOrder(res.hits.map((h) => run.set.unitOf(h.source_path))), a.q.gold, K));
  }
  return out;
}

/** Share of a question's evidence turns inside a default pack for it, per question. */
async function packOf(runtime: FullRuntime, run: SetRun, asks: readonly Ask[]): Promise<number[]> {
  const out: number[] = [];
  for (const a of asks) {
    const pack = await runtime.memory.pack(run.workspaces.get(a.q.vault)!, { intent: a.text });
    const units = new Set(pack.items.map((i) => run.set.unitOf(i.citation.source_path)));
    out.push([...a.q.gold].filter((g) => units.has(g)).length / Math.max(1, a.q.gold.size));
  }
  return out;
}

function stressCase(
  id: string,
  layer: LayerId,
  metric: string,
  unperturbed: readonly number[],
  on: readonly number[],
  offs: readonly number[],
): StressCase {
  const [u, a, b] = [meanOf(unperturbed), meanOf(on), meanOf(offs)];
  return {
    id,
    layer,
    metric,
    queries: on.length,
    unperturbed: round(u),
    on: round(a),
    off: round(b),
    uplift: round(a - b),
    changed: on.filter((v, i) => v !== offs[i]).length,
  };
}

/** Asks each feedback question and reports, through the handler POST /v1/memory/feedback calls, its gold citations as used (and, with `unhelpful`, the rest of its ten hits as unhelpful). */
async function giveFeedback(
  runtime: FullRuntime,
  run: SetRun,
  asks: readonly Ask[],
  unhelpful: boolean,
): Promise<{ used: number; unhelpful: number }> {
  const n = { used: 0, unhelpful: 0 };
  for (const a of asks) {
    const ws = run.workspaces.get(a.q.vault)!;
    const call = callOf(ws, a.q.vault, null);
    const hits = (await runtime.memory.recall(ws, { query: a.text, k: K, mode: "hybrid" }, { call })).hits;
    const gold = hits.filter((h) => a.q.gold.has(run.set.unitOf(h.source_path))).map((h) => h.chunk_hash);
    const rest = hits.filter((h) => !a.q.gold.has(run.set.unitOf(h.source_path))).map((h) => h.chunk_hash);
    // With its question, so the report is also a case for the tuner on feedback.
    if (gold.length > 0)
      n.used += (
        await runtime.handlers.feedback(call, { chunk_hashes: gold, outcome: "used", query: a.text })
      ).recorded;
    if (unhelpful && gold.length > 0 && rest.length > 0)
      n.unhelpful += (await runtime.handlers.feedback(call, { chunk_hashes: rest, outcome: "unhelpful" })).recorded;
  }
  return n;
}

/** karma on a fresh store: feedback from the even questions, recall@10 of the odd ones with karma on and off. */
async function karmaCase(
  set: EvalSet,
  id: string,
  unhelpful: boolean,
  unperturbed: readonly number[],
  sharing: readonly boolean[],
): Promise<{ c: StressCase; notes: Record<string, unknown> }> {
  const run = await prepareSet(set);
  try {
    const asks = set.queries.map((q) => ({ q, text: q.text }));
    const on = await runtimeOf(run, defaultCognitiveConfig);
    const feedback = await giveFeedback(
      on,
      run,
      asks.filter((_, i) => isFeedbackQuery(i)),
      unhelpful,
    );
    const measured = asks.filter((_, i) => !isFeedbackQuery(i));
    progress(`stress: ${id}: ${feedback.used} used / ${feedback.unhelpful} unhelpful reports`);
    // Karma off; its ledger starts empty anyway (the harness does not restore learned state from the feedback events).
    const offRuntime = await runtimeOf(run, off("karma"));
    const [withKarma, without] = [await recallOf(on, run, measured), await recallOf(offRuntime, run, measured)];
    // Feedback can only move a measured question whose evidence a feedback question shares: the same figures on those alone.
    const shared = (i: number) => sharing[i] === true;
    const notes = {
      ...feedback,
      measured: measured.length,
      sharingEvidence: sharing.filter(Boolean).length,
      sharingOn: round(meanOf(withKarma, shared)),
      sharingOff: round(meanOf(without, shared)),
    };
    const tuning = unhelpful ? {} : { tuner: await feedbackTuning(run, on, measured, without) };
    return { c: stressCase(id, "karma", RECALL, unperturbed, withKarma, without), notes: { ...notes, ...tuning } };
  } finally {
    await run.harness.close();
  }
}

/**
 * The tuner on those reports (each carries its question; held-in = its even cases): what it keeps, and recall@10 of the
 * measured questions, none of which it saw, with its parameters vs the shipped ones (both with karma off, whose ledger
 * would otherwise differ between the two runtimes).
 */
async function feedbackTuning(
  run: SetRun,
  runtime: FullRuntime,
  measured: readonly Ask[],
  shippedKarmaOff: readonly number[],
): Promise<Record<string, unknown>> {
  const cases = await feedbackCases(runtime.store.audit, [...run.workspaces.values()]);
  const r = await tuneFromFeedback(
    { store: runtime.store, memory: runtime.memory, pipeline: runtime.cognitive.pipeline, now: Date.now },
    cases,
    { runId: "stress-feedback-tuner" },
  );
  const tuned = await recallOf(await runtimeOf(run, withSwitches(r.config, { karma: false })), run, measured);
  const kept = r.decisions.filter((d) => d.kept).map((d) => `${d.layer}.${d.parameter}=${String(d.after)}`);
  const best = [...r.decisions].sort((x, y) => y.held_in_after - x.held_in_after)[0];
  progress(
    `stress: feedback tuner: ${cases.length} cases, kept ${kept.join(", ") || "nothing"}; measured recall@10 ${meanOf(shippedKarmaOff).toFixed(4)} -> ${meanOf(tuned).toFixed(4)}`,
  );
  return {
    cases: cases.length,
    tried: r.decisions.length,
    kept,
    bestTried: best
      ? {
          change: `${best.layer}.${best.parameter}=${String(best.after)}`,
          heldIn: [best.held_in_before, best.held_in_after],
        }
      : null,
    heldIn: [round(r.baseline.heldIn), round(r.final.heldIn)],
    heldOut: [
      r.baseline.heldOut === null ? null : round(r.baseline.heldOut),
      r.final.heldOut === null ? null : round(r.final.heldOut),
    ],
    measuredRecallShipped: round(meanOf(shippedKarmaOff)),
    measuredRecallTuned: round(meanOf(tuned)),
    measuredChanged: tuned.filter((v, i) => v !== shippedKarmaOff[i]).length,
  };
}

export async function runStress(): Promise<void> {
  const wall = performance.now();
  const set = loadLocomo();
  const all: Ask[] = set.queries.map((q) => ({ q, text: q.text }));
  const cases: StressCase[] = [];
  const notes: Record<string, unknown> = {};

  const plain = await prepareSet(set);
  let base: number[];
  try {
    const defaults = await runtimeOf(plain, defaultCognitiveConfig);
    progress("stress: unperturbed");
    base = await recallOf(defaults, plain, all);
    const basePack = await packOf(defaults, plain, all);

    progress("stress: first person (ahamkara)");
    const fp = firstPersonQueries(set.queries, locomoSpeakers());
    const named = fp.map((a) => ({ q: a.q, text: a.q.text }));
    const noAhamkara = await runtimeOf(plain, off("ahamkara"));
    cases.push(
      stressCase(
        "first-person",
        "ahamkara",
        RECALL,
        await recallOf(defaults, plain, named),
        await recallOf(defaults, plain, fp),
        await recallOf(noAhamkara, plain, fp),
      ),
    );
    notes["first-person"] = { queries: fp.length, of: set.queries.length };

    progress("stress: invisible characters (indriya)");
    const rng = stressRng();
    const hidden = all.map((a) => ({ ...a, text: withInvisibles(a.text, rng) }));
    const noIndriya = await runtimeOf(plain, off("indriya"));
    cases.push(
      stressCase(
        "invisible-chars",
        "indriya",
        RECALL,
        base,
        await recallOf(defaults, plain, hidden),
        await recallOf(noIndriya, plain, hidden),
      ),
    );
    notes["invisible-chars"] = { inserted: hidden.reduce((n, a) => n + (a.text.length - a.q.text.length), 0) };

    progress("stress: ingested twice (viveka)");
    const twice = await prepareSet(withExportCopies(set));
    try {
      const on = await runtimeOf(twice, defaultCognitiveConfig);
      const noViveka = await runtimeOf(twice, off("viveka"));
      cases.push(
        stressCase(
          "ingested-twice",
          "viveka",
          RECALL,
          base,
          await recallOf(on, twice, all),
          await recallOf(noViveka, twice, all),
        ),
      );
      cases.push(
        stressCase(
          "ingested-twice",
          "viveka",
          PACK,
          basePack,
          await packOf(on, twice, all),
          await packOf(noViveka, twice, all),
        ),
      );
      const pairs = exportPairs(set);
      const near = pairs.filter(([a, b]) => {
        const [x, y] = numberTerms([tokenize(a), tokenize(b)]);
        return isNearDuplicate({ terms: x! }, { terms: y! }, defaultCognitiveConfig.params.viveka.duplicateJaccard);
      }).length;
      notes["ingested-twice"] = { turns: pairs.length, pairsAtOrAboveJaccard: near };
    } finally {
      await twice.harness.close();
    }
  } finally {
    await plain.harness.close();
  }

  const measuredBase = base.filter((_, i) => !isFeedbackQuery(i));
  const feedbackGold = new Set(
    set.queries.flatMap((q, i) => (isFeedbackQuery(i) ? [...q.gold].map((g) => `${q.vault}/${g}`) : [])),
  );
  const sharing = set.queries
    .filter((_, i) => !isFeedbackQuery(i))
    .map((q) => [...q.gold].some((g) => feedbackGold.has(`${q.vault}/${g}`)));
  for (const [id, unhelpful] of [
    ["feedback-used", false],
    ["feedback-used-unhelpful", true],
  ] as const) {
    progress(`stress: ${id} (karma)`);
    const { c, notes: n } = await karmaCase(set, id, unhelpful, measuredBase, sharing);
    cases.push(c);
    notes[id] = n;
  }

  const prov = provenance();
  const result = {
    ...prov,
    set: "locomo",
    k: K,
    config: { enabled: defaultCognitiveConfig.enabled, params: defaultCognitiveConfig.params },
    cases,
    notes,
    wallMs: Math.round(performance.now() - wall),
  };
  print(cases);
  progress(`wrote ${writeResult("stress", result)}`);
  await recordInDataDir((store) =>
    recordStress(store.cognitive, Date.now(), { run_id: `stress-${prov.date}`, commit: prov.commit, cases }),
  );
}

function print(cases: readonly StressCase[]): void {
  const rows = cases.map((c) => [
    c.id,
    c.layer,
    c.metric,
    String(c.queries),
    c.unperturbed.toFixed(3),
    c.on.toFixed(3),
    c.off.toFixed(3),
    signed(c.uplift),
    String(c.changed),
  ]);
  process.stdout.write(
    `\n== cognitive stress (LoCoMo perturbed; on = shipped defaults, off = that layer off)\n${textTable(["perturbation", "layer", "metric", "queries", "unperturbed", "on", "off", "uplift", "changed"], rows)}\n`,
  );
}

const round = (x: number) => Number(x.toFixed(4));
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
