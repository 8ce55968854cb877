// `npm run eval -- xquad locomo-answers`: grounded answers through the real service, tables on stdout, JSON in eval/results.
import { ANSWER_THRESHOLD, CONFIDENCE, SPAN, SPAN_MIN } from "../../src/domain/answering/answer.ts";
import type { CallContext } from "../../src/ports/call-context.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { meanInterval } from "../bootstrap.ts";
import { evalEmbedder, openHarness } from "../harness.ts";
import { ingestSet } from "../ingest.ts";
import { progress, ticker } from "../progress.ts";
import { provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { textTable } from "../table.ts";
import { ask } from "./ask.ts";
import { loadLocomoAnswers, LOCOMO_CATEGORY } from "./locomo.ts";
import { trust, type Trust } from "./trust.ts";
import {
  answeredAt,
  isRight,
  locomoMetrics,
  locomoScores,
  temporalScores,
  xquadMetrics,
  xquadScores,
  type Metrics,
  type Row,
} from "./score.ts";
import type { AnswerSet } from "./types.ts";
import { loadXquad } from "./xquad.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

export const ANSWER_SETS: Record<string, () => AnswerSet> = { xquad: loadXquad, "locomo-answers": loadLocomoAnswers };
export const ANSWER_SET_NAMES = Object.keys(ANSWER_SETS);

/** Published reference points (Rajpurkar et al. 2016, SQuAD v1.1 dev); those systems were handed the gold paragraph. */
export const XQUAD_REFERENCES = [
  { label: "sliding-window baseline (SQuAD v1.1 paper)", metric: "f1", value: 0.2 },
  { label: "logistic regression (SQuAD v1.1 paper)", metric: "f1", value: 0.51 },
];

/**
 * XQuAD F1 with a 95% interval that resamples whole articles (their questions share a topic and a writer, so they are not
 * independent): how far a figure of one half could move on other articles of the same kind.
 */
function f1Intervals(
  rows: readonly Row[],
): Record<string, { f1: [number, number]; f1_never_abstaining: [number, number] }> {
  const of = (rs: readonly Row[]) => {
    const vaults = rs.map((r) => r.q.vault);
    const f1At = (t: number) => rs.map((r) => (answeredAt(r.o, t) ? xquadScores(r).f1 : 0));
    return { f1: meanInterval(f1At(ANSWER_THRESHOLD), vaults), f1_never_abstaining: meanInterval(f1At(0), vaults) };
  };
  return Object.fromEntries(SPLITS.map((s) => [s, of(s === "all" ? rows : rows.filter((r) => r.q.split === s))]));
}

const SWEEP = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const SPLITS = ["all", "tune", "test"] as const;

/** The CallContext of an eval question: the vault's workspace (named as eval/ingest.ts names it), token "eval", no actor. */
export function callFor(aset: AnswerSet, workspaces: ReadonlyMap<string, string>, vault: string): CallContext {
  return {
    workspaceId: workspaces.get(vault)!,
    workspaceName: `eval-${aset.set.name}-${vault}`,
    tokenId: "eval",
    actorId: null,
    scopes: ALL_SCOPES,
  };
}

/** Ingests one answer set into a fresh store, asks every question; returns the rows and timings. */
export async function collect(aset: AnswerSet): Promise<{ rows: Row[]; ingestMs: number; chunks: number }> {
  const { harness, primary } = await openHarness(aset.name, defaultRetrievalConfig);
  try {
    const t = performance.now();
    const { workspaces, chunks } = await ingestSet(primary, aset.set);
    const ingestMs = performance.now() - t;
    progress(
      `${aset.name}: ${aset.set.vaults.length} vault(s), ${chunks} chunks, ${aset.questions.length} questions, ingest ${(ingestMs / 1000).toFixed(1)}s`,
    );
    const rows: Row[] = [];
    const tick = ticker(`ask ${aset.name}`, aset.questions.length);
    for (const q of aset.questions) {
      rows.push({ q, o: await ask(primary, callFor(aset, workspaces, q.vault), q.text) });
      tick(rows.length);
    }
    return { rows, ingestMs, chunks };
  } finally {
    await harness.close();
  }
}

export async function runAnswerSets(names: readonly string[]): Promise<void> {
  const embedder = await evalEmbedder();
  for (const name of names) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const aset = ANSWER_SETS[name]!();
    const { rows, ingestMs, chunks } = await collect(aset);
    const used = process.cpuUsage(cpu);
    const mismatched = rows.filter((r) => answeredAt(r.o, ANSWER_THRESHOLD) !== r.o.answeredByDefault).length;
    if (mismatched)
      progress(
        `warning: ${mismatched} question(s) where the threshold replay disagrees with the service's own decision`,
      );
    const xquad = name === "xquad";
    const metrics = xquad ? xquadMetrics : locomoMetrics;
    const bySplit = (t: number) =>
      Object.fromEntries(
        SPLITS.map((s) => [s, metrics(s === "all" ? rows : rows.filter((r) => r.q.split === s), t)]),
      ) as Record<(typeof SPLITS)[number], Metrics>;
    const byGroup = Object.fromEntries(
      [...new Set(rows.map((r) => r.q.group))].map((g) => [
        g,
        Object.fromEntries(
          (["all", "test"] as const).map((s) => [
            s,
            metrics(
              rows.filter((r) => r.q.group === g && (s === "all" || r.q.split === s)),
              ANSWER_THRESHOLD,
            ),
          ]),
        ),
      ]),
    );
    const result = {
      set: name,
      ...provenance(),
      embedder: embedder.id,
      config: {
        answerThreshold: ANSWER_THRESHOLD,
        confidence: CONFIDENCE,
        span: SPAN,
        spanMin: SPAN_MIN,
        k: 8,
        mode: "hybrid",
        retrieval: defaultRetrievalConfig,
      },
      corpus: {
        vaults: aset.set.vaults.length,
        docs: aset.set.vaults.reduce((n, v) => n + v.docs.length, 0),
        chunks,
        questions: rows.length,
      },
      split: aset.splitNote,
      notes: aset.notes,
      references: xquad ? XQUAD_REFERENCES : [],
      timing: {
        ingestMs: Math.round(ingestMs),
        wallMs: Math.round(performance.now() - wall),
        cpuMs: Math.round((used.user + used.system) / 1000),
        msPerQuestion: Number((rows.reduce((s, r) => s + r.o.ms, 0) / rows.length).toFixed(2)),
      },
      atThreshold: bySplit(ANSWER_THRESHOLD),
      noAbstention: bySplit(0),
      ...(xquad ? { f1Interval: f1Intervals(rows) } : {}),
      byGroup,
      sweep: SWEEP.map((t) => ({ threshold: t, ...bySplit(t) })),
      trust: Object.fromEntries(
        SPLITS.map((s) => [s, trust(s === "all" ? rows : rows.filter((r) => r.q.split === s), ANSWER_THRESHOLD)]),
      ) as Record<(typeof SPLITS)[number], Trust>,
      // Ids and scores only: no question or answer text from the data sets in the repository.
      perQuestion: rows.map((r) => ({
        id: r.q.id,
        split: r.q.split,
        group: r.q.group,
        confidence: r.o.confidence,
        answered: r.o.answeredByDefault,
        right: isRight(r),
        ...(xquad ? xquadScores(r) : { ...locomoScores(r), ...temporalScores(r) }),
      })),
    };
    printAnswerSet(result);
    progress(`wrote ${writeResult(name, result)}`);
  }
}

export interface AnswerSetResult {
  set: string;
  commit: string;
  dirtySrc: boolean;
  date: string;
  config: { answerThreshold: number };
  corpus: { questions: number; vaults: number; chunks: number };
  split: string;
  timing: { msPerQuestion: number; wallMs: number };
  atThreshold: Record<string, Metrics>;
  noAbstention: Record<string, Metrics>;
  byGroup: Record<string, Record<string, Metrics>>;
  sweep: ({ threshold: number } & Record<string, Metrics | number>)[];
  trust: Record<string, Trust>;
  references: { label: string; metric: string; value: number }[];
  /** XQuAD only: 95% intervals over articles (f1Intervals). */
  f1Interval?: Record<string, { f1: [number, number]; f1_never_abstaining: [number, number] }>;
}

export const XQUAD_COLUMNS = ["abstention", "span_hit", "em", "f1", "em_answered", "f1_answered", "top_cite_gold"];
export const LOCOMO_COLUMNS = [
  "extractable",
  "contained_spans_extractable",
  "contained_spans",
  "contained_answer",
  "contained_spans_answered",
  "top_cite_evidence",
  "top_cite_evidence_answered",
  "false_abstention",
  "correct_abstention_5",
  "temporal_answered",
  "temporal_date_equal_answered",
  "temporal_date_within_answered",
];

function printAnswerSet(r: AnswerSetResult): void {
  const xquad = r.set === "xquad";
  const cols = xquad ? XQUAD_COLUMNS : LOCOMO_COLUMNS;
  const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : (100 * x).toFixed(1));
  const table = (m: Record<string, Metrics>, label: string) =>
    textTable(
      [label, "n", ...cols],
      SPLITS.map((s) => [s, m[s]!.n ?? m[s]!.n_1_4 ?? 0, ...cols.map((c) => pct(m[s]![c]))]),
    );
  const out = [
    `\n== ${r.set}  (${r.corpus.questions} questions, ${r.corpus.vaults} vaults, ${r.corpus.chunks} chunks; commit ${r.commit}${r.dirtySrc ? "+local changes" : ""}; ${r.timing.msPerQuestion} ms/question)`,
  ];
  out.push(`split: ${r.split}. Figures in %.`, "");
  out.push(`at the default threshold ${r.config.answerThreshold}:`, table(r.atThreshold, "split"), "");
  out.push("never abstaining (threshold 0; only 'no evidence at all' abstains):", table(r.noAbstention, "split"), "");
  if (xquad) {
    const band = ([lo, hi]: [number, number]) => `${pct(lo)}-${pct(hi)}`;
    for (const s of SPLITS)
      if (r.f1Interval?.[s])
        out.push(
          `F1 95% interval over articles, ${s}: ${band(r.f1Interval[s].f1)} at ${r.config.answerThreshold}, ${band(r.f1Interval[s].f1_never_abstaining)} never abstaining`,
        );
    for (const ref of r.references)
      out.push(`reference: ${ref.label} ${ref.metric.toUpperCase()} ${(100 * ref.value).toFixed(1)}`);
  } else {
    const groups = Object.keys(r.byGroup).filter((g) => g !== LOCOMO_CATEGORY[5]);
    out.push(`by category at ${r.config.answerThreshold} (all / test):`);
    const row = (g: string) => {
      const a = r.byGroup[g]!["all"]!;
      const t = r.byGroup[g]!["test"]!;
      return [
        g,
        a.n_1_4 ?? 0,
        pct(a.extractable),
        pct(a.contained_spans),
        pct(a.contained_answer),
        pct(a.false_abstention),
        pct(t.contained_spans),
        pct(t.false_abstention),
      ];
    };
    out.push(
      textTable(
        [
          "category",
          "n",
          "extractable",
          "contained spans",
          "contained answer",
          "false abstention",
          "test: contained spans",
          "test: false abstention",
        ],
        groups.map(row),
      ),
    );
  }
  out.push(
    "",
    "confidence as probability of being right (token F1 >= 0.5; LoCoMo category 5 never), answers at min_confidence 0:",
  );
  for (const s of ["tune", "test"] as const) {
    const t = r.trust[s]!;
    out.push(
      `${s}: ${t.n} answers, ECE (5 bins) ${pct(t.ece)} (95% interval over vaults ${pct(t.eceInterval[0])}-${pct(t.eceInterval[1])}); confidence >= 0.9: ${t.confident.n} answers, ${pct(t.confident.right)} right; answer-type accuracy (person/place/date/number answered at ${r.config.answerThreshold}) ${pct(t.typed.accuracy)} of ${t.typed.n}`,
    );
    out.push(
      textTable(
        ["confidence", "n", "mean confidence", "share right"],
        t.bins.map((b) => [`${b.from.toFixed(1)}-${b.to.toFixed(1)}`, b.n, pct(b.meanConfidence), pct(b.right)]),
      ),
    );
  }
  const sweepCols = xquad
    ? ["abstention", "span_hit", "f1", "f1_answered"]
    : ["false_abstention", "contained_spans", "contained_spans_answered", "correct_abstention_5"];
  out.push("", "threshold trade-off (test split):");
  out.push(
    textTable(
      ["threshold", ...sweepCols],
      r.sweep.map((p) => [p.threshold.toFixed(1), ...sweepCols.map((c) => pct((p["test"] as Metrics)[c]))]),
    ),
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
