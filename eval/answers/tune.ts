// `node --import tsx eval/answers/tune.ts [--cv] [--cv-sentences] [--fit-spans [--binary]] [--fit] [--cv-confidence] [--features=a,b]`: the TUNE
// split only (XQuAD even articles, LoCoMo conv-26/30). Prints answer quality by question kind; --cv cross-validates the span
// scorer over the tune vaults, --cv-sentences the weight of SENTENCE's indirect matches; --fit-spans fits SPAN (src/domain/span-score.ts; a ranking, see ranking.ts) and scans SPAN_MIN;
// --fit fits CONFIDENCE (src/domain/answer.ts), optionally on a subset of its features; --cv-confidence cross-validates it. Never reads the test split.
import { ANSWER_THRESHOLD, CONFIDENCE, planAnswer, SENTENCE, SPAN_MIN, type EvidenceChunk } from "../../src/domain/answer.ts";
import { posTags } from "../../src/nlp/wink-tagger.ts";
import type { Similar } from "../../src/domain/word-sense.ts";
import type { WordSimilarity } from "../../src/ports.ts";
import { answerType } from "../../src/domain/answer-type.ts";
import { defaultRetrievalConfig } from "../../src/services/retrieval-config.ts";
import { meanInterval } from "../bootstrap.ts";
import { fitLogistic, logLoss, predict } from "../calibrate/logistic.ts";
import { openHarness } from "../harness.ts";
import { fitRanking } from "./ranking.ts";
import { ingestSet } from "../ingest.ts";
import { progress } from "../progress.ts";
import { textTable } from "../table.ts";
import { ask } from "./ask.ts";
import { ANSWER_SETS, callFor } from "./run.ts";
import { containsNormalized, maxOver, tokenF1 } from "./squad.ts";
import { answeredAt, locomoMetrics, xquadMetrics, xquadScores, type Row } from "./score.ts";

interface Harvested extends Row {
  features: Record<string, number>;
  /** The answer's top citation holds the answer: XQuAD gold text in it, LoCoMo an evidence turn (category 5: never). */
  correct: boolean;
  type: string;
  /** The best sentence's candidate spans (SpanFeatures) with their token F1 against the gold answers, and the sentence's own F1. */
  spans: { features: Record<string, number>; f1: number; contains: boolean; text: string }[];
  sentenceF1: number;
  /** The evidence the service planned from (with each chunk's source), to re-plan with other weights (--cv end to end). */
  chunks: (EvidenceChunk & { source: string })[];
}

let similar: Similar | undefined;

async function harvest(name: string): Promise<Harvested[]> {
  const aset = ANSWER_SETS[name]!();
  const questions = aset.questions.filter((q) => q.split === "tune");
  const { harness, primary } = await openHarness(name, defaultRetrievalConfig);
  const words = primary.embedder as unknown as Partial<WordSimilarity>; // the GloVe embedder, as GroundedService gets it
  similar ??= words.similarity ? (a: string, b: string) => words.similarity!(a, b) : undefined;
  try {
    const { workspaces } = await ingestSet(primary, aset.set);
    const out: Harvested[] = [];
    for (const q of questions) {
      const call = callFor(aset, workspaces, q.vault);
      // The service's own deliberation (retrieval, cognitive weighing, plan; side-effect free), first: answering commits the thought.
      const { plan, chunks, scoreOf } = await primary.grounded.deliberate(call, { question: q.text, k: 8 });
      const o = await ask(primary, call, q.text);
      if (Math.abs(plan.confidence - o.confidence) > 1e-5) throw new Error(`plan and service disagree on '${q.text}'`);
      const row = { q, o };
      const correct = name === "xquad" ? xquadScores(row).spanHit : q.golds.length > 0 && q.goldSources.includes(o.topSource ?? "");
      const sentence = plan.selected[0]?.text ?? "";
      const spans = plan.spans.map((c) => ({ features: { ...c.features }, f1: maxOver(tokenF1, sentence.slice(c.span.start, c.span.end), q.golds), contains: q.golds.some((g) => containsNormalized(sentence.slice(c.span.start, c.span.end), g)), text: sentence.slice(c.span.start, c.span.end) }));
      if (process.env.DUMP && name === "xquad" && plan.answerType === "entity") {
        const c = plan.spans.map((x) => ({ t: sentence.slice(x.span.start, x.span.end), p: x.score.toFixed(2), f: maxOver(tokenF1, sentence.slice(x.span.start, x.span.end), q.golds).toFixed(2) }));
        process.stderr.write(`\nQ: ${q.text}\nG: ${q.golds.join(" | ")}\nS: ${sentence}\nC: ${c.map((x) => `[${x.t}] ${x.p}/${x.f}`).join("  ")}\n`);
      }
      const evidence = chunks.map((c) => ({ key: c.id, text: c.text, score: scoreOf.get(c.id) ?? 0, source: c.sourcePath }));
      out.push({ ...row, features: { ...plan.features }, correct, type: plan.answerType, spans, sentenceF1: maxOver(tokenF1, sentence, q.golds), chunks: evidence });
    }
    return out;
  } finally {
    await harness.close();
  }
}

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "" : (100 * x).toFixed(1));

function report(xq: Harvested[], lo: Harvested[]): void {
  const kinds = [...new Set(xq.map((r) => answerType(r.q.text)))];
  const rows = kinds.map((k) => {
    const rs = xq.filter((r) => answerType(r.q.text) === k);
    const m = xquadMetrics(rs, 0);
    return [k, rs.length, pct(m.span_hit), pct(m.em), pct(m.f1)];
  });
  const all = xquadMetrics(xq, 0);
  rows.push(["all", xq.length, pct(all.span_hit), pct(all.em), pct(all.f1)]);
  process.stdout.write(`\nXQuAD tune, never abstaining, by answer type:\n${textTable(["type", "n", "span_hit", "em", "f1"], rows)}\n`);
  const cats = [...new Set(lo.map((r) => r.q.group))];
  const lrows = cats.map((c) => {
    const rs = lo.filter((r) => r.q.group === c);
    const m = locomoMetrics(rs, 0);
    return [c, rs.length, pct(m.top_cite_evidence), pct(m.contained_spans), pct(m.contained_answer), pct(m.contained_spans_extractable)];
  });
  process.stdout.write(`\nLoCoMo tune, never abstaining:\n${textTable(["category", "n", "top_cite_evidence", "contained spans", "contained answer", "contained (extractable)"], lrows)}\n`);
  const sweep = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7].map((t) => {
    const x = xquadMetrics(xq, t);
    const l = locomoMetrics(lo, t);
    return [t.toFixed(1), pct(x.abstention), pct(x.f1), pct(x.span_hit_answered), pct(l.false_abstention), pct(l.top_cite_evidence_answered), pct(l.correct_abstention_5)];
  });
  process.stdout.write(`\nthreshold trade-off on tune (current CONFIDENCE ${JSON.stringify(CONFIDENCE)}, threshold ${ANSWER_THRESHOLD}):\n${textTable(["t", "xq abstain", "xq f1", "xq span_hit|ans", "lo false abst", "lo evid|ans", "lo cat5 abst"], sweep)}\n`);
}

function fit(rows: Harvested[], only: string[] | null): void {
  const names = Object.keys(rows[0]!.features).filter((n) => !only || only.includes(n));
  // XQuAD and LoCoMo rows pooled (325 and 304 tune questions: about equal weight); L2 1 as in eval/calibrate.
  const xs = rows.map((r) => names.map((n) => r.features[n]!));
  const ys = rows.map((r) => (r.correct ? 1 : 0));
  const f = fitLogistic(xs, ys, 1);
  const weights = Object.fromEntries([...names.map((n, i) => [n, Number(f.weights[i]!.toFixed(2))]), ["bias", Number(f.bias.toFixed(2))]]);
  process.stdout.write(`\nfitted CONFIDENCE (tune split, ${rows.length} rows, ${ys.filter(Boolean).length} correct, log-loss ${f.logLoss.toFixed(4)}):\n  ${JSON.stringify(weights)}\n`);
  const p = rows.map((r, i) => predict(f, xs[i]!));
  for (const t of [0.3, 0.4, 0.5, 0.6]) {
    const acc = (rs: Harvested[]) => pct(rs.filter((r) => (p[rows.indexOf(r)]! >= t) === r.correct).length / rs.length);
    const abst = (rs: Harvested[]) => pct(rs.filter((r) => p[rows.indexOf(r)]! < t).length / rs.length);
    const lo = rows.filter((r) => r.q.id.includes("#"));
    const xq = rows.filter((r) => !r.q.id.includes("#"));
    process.stdout.write(`  t=${t}: decision accuracy ${acc(rows)} (xquad ${acc(xq)}, locomo ${acc(lo)}); abstain xquad ${abst(xq)}, locomo 1-4 ${abst(lo.filter((r) => r.q.golds.length))}, locomo 5 ${abst(lo.filter((r) => !r.q.golds.length))}\n`);
  }
}

/**
 * --cv-confidence: CONFIDENCE cross-validated, 4 folds over the tune vaults (XQuAD and LoCoMo pooled as in --fit): per
 * fold fitted on the other vaults, the fold's rows predicted. Held-out log-loss, AUC within each set (ranking, whatever
 * the level), and at each threshold decision accuracy, XQuAD abstention and F1, LoCoMo false abstention (1-4) and
 * category-5 correct abstention. A row without evidence abstains at any threshold, as in the service.
 */
function crossValidateConfidence(rows: Harvested[], only: string[] | null): void {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const names = Object.keys(rows[0]!.features).filter((n) => !only || only.includes(n));
  const xs = rows.map((r) => names.map((n) => r.features[n]!));
  const ys = rows.map((r) => (r.correct ? 1 : 0));
  const p = rows.map(() => 0);
  for (const fold of [0, 1, 2, 3]) {
    const train = rows.map((_, i) => i).filter((i) => vaults.indexOf(rows[i]!.q.vault) % 4 !== fold);
    const f = fitLogistic(train.map((i) => xs[i]!), train.map((i) => ys[i]!), 1);
    rows.forEach((r, i) => vaults.indexOf(r.q.vault) % 4 === fold && (p[i] = r.o.evidence ? predict(f, xs[i]!) : 0));
  }
  const idx = (keep: (r: Harvested) => boolean) => rows.map((_, i) => i).filter((i) => keep(rows[i]!));
  const xq = idx((r) => !r.q.id.includes("#"));
  const lo = idx((r) => r.q.id.includes("#"));
  const auc = (ix: number[]) => {
    const pos = ix.filter((i) => ys[i]);
    const neg = ix.filter((i) => !ys[i]);
    const wins = pos.reduce((s, a) => s + neg.reduce((t, b) => t + (p[a]! > p[b]! ? 1 : p[a] === p[b] ? 0.5 : 0), 0), 0);
    return (wins / Math.max(1, pos.length * neg.length)).toFixed(3);
  };
  process.stdout.write(`\ncv CONFIDENCE (${names.join(",")}): held-out log-loss ${logLoss(p, ys).toFixed(4)}, AUC xquad ${auc(xq)}, locomo ${auc(lo)}\n`);
  const rowsOut = [0.4, 0.45, 0.5, 0.55, 0.6].map((t) => {
    const ans = (i: number) => rows[i]!.o.evidence && p[i]! >= t;
    const share = (ix: number[], keep: (i: number) => boolean) => pct(ix.filter(keep).length / ix.length);
    const f1 = xq.reduce((s, i) => s + (ans(i) ? tokenF1Of(rows[i]!) : 0), 0) / xq.length;
    return [t.toFixed(2), share(rows.map((_, i) => i), (i) => ans(i) === rows[i]!.correct), share(xq, (i) => !ans(i)), pct(f1), share(idx((r) => r.q.id.includes("#") && r.q.golds.length > 0), (i) => !ans(i)), share(idx((r) => r.q.id.includes("#") && r.q.golds.length === 0), (i) => !ans(i))];
  });
  process.stdout.write(`${textTable(["t", "decision acc", "xq abstain", "xq f1", "lo false abst", "lo cat5 abst"], rowsOut)}\n`);
}

const tokenF1Of = (r: Harvested) => maxOver(tokenF1, r.o.answer ?? "", r.q.golds);

/** The SPAN ranking fit over each question's candidate spans (target: token F1), see ranking.ts. */
function fitSpanRanking(rows: Harvested[], names: string[]): { weights: number[]; bias: number } {
  return fitRanking(rows.map((r) => r.spans.map((c) => ({ x: names.map((n) => c.features[n]!), t: c.f1 }))));
}

/** SPAN fitted on the candidates of the vaults outside `fold` (of 4, by the vault's index in `vaults`), as weights by feature name. */
function foldSpanWeights(rows: Harvested[], names: string[], vaults: readonly string[], fold: number): Record<string, number> {
  const f = fitSpanRanking(rows.filter((r) => vaults.indexOf(r.q.vault) % 4 !== fold && r.q.golds.length > 0 && r.spans.length > 0), names);
  return Object.fromEntries([...names.map((k, i) => [k, f.weights[i]!]), ["bias", f.bias]]);
}

/**
 * --cv: 4-fold cross-validation over the tune vaults of the span scorer (binary vs ranking fit; all features, or those of
 * --features=...): mean XQuAD answer F1 never abstaining, at each SPAN_MIN (the whole sentence when the best "what" span
 * is less likely; also when there is no span), and the share of extractable LoCoMo golds the answer contains.
 */
function crossValidate(rows: Harvested[], only: string[] | null): void {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const withSpans = rows.find((r) => r.spans.length > 0)!;
  const names = Object.keys(withSpans.spans[0]!.features).filter((n) => !only || only.includes(n));
  const mins = [0, 0.025, 0.05, 0.075, 0.1, 0.15];
  for (const rank of [false, true]) {
    const xquad = mins.map(() => 0);
    let locomo = 0;
    for (const fold of [0, 1, 2, 3]) {
      const train = rows.filter((r) => vaults.indexOf(r.q.vault) % 4 !== fold && r.q.golds.length > 0 && r.spans.length > 0);
      const cands = train.flatMap((r) => r.spans);
      const f = rank ? fitSpanRanking(train, names) : fitLogistic(cands.map((c) => names.map((n) => c.features[n]!)), cands.map((c) => (c.f1 >= 0.5 ? 1 : 0)), 1);
      for (const r of rows.filter((x) => vaults.indexOf(x.q.vault) % 4 === fold)) {
        const scored = r.spans.map((c) => ({ c, p: predict(f, names.map((n) => c.features[n]!)) }));
        const top = scored.length ? scored.reduce((a, b) => (b.p > a.p ? b : a)) : null;
        const f1 = (min: number) => (!top || (r.type === "entity" && top.p < min) ? r.sentenceF1 : top.c.f1);
        if (r.q.id.includes("#")) locomo += top && f1(SPAN_MIN) === top.c.f1 ? (top.c.contains ? 1 : 0) : r.sentenceF1 > 0 ? 1 : 0;
        else mins.forEach((m, i) => (xquad[i]! += f1(m)));
      }
    }
    const nx = rows.filter((r) => !r.q.id.includes("#")).length;
    const nl = rows.length - nx;
    process.stdout.write(`  cv ${names.length} features, ${rank ? "ranking" : "binary"}: XQuAD F1 ${mins.map((m, i) => `${pct(xquad[i]! / nx)} at SPAN_MIN ${m}`).join(", ")} (${nx}); LoCoMo extractable contained ${pct(locomo / nl)} (${nl})\n`);
  }
}

/**
 * End-to-end cross-validation: per fold, SPAN fitted on the other vaults' candidates, then the fold's questions planned
 * anew with it (sentence choice included, as the service would) and the answer scored: XQuAD F1 never abstaining.
 */
function crossValidateEndToEnd(rows: Harvested[], only: string[] | null): { mean: number; f1: number[]; vaults: string[] } {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const names = Object.keys(rows.find((r) => r.spans.length > 0)!.spans[0]!.features).filter((n) => !only || only.includes(n));
  const f1: number[] = []; // per XQuAD question, in the same order for every feature set (fold, then row order): differences pair up
  const of: string[] = [];
  for (const fold of [0, 1, 2, 3]) {
    const weights = foldSpanWeights(rows, names, vaults, fold);
    for (const r of rows.filter((x) => vaults.indexOf(x.q.vault) % 4 === fold && !x.q.id.includes("#"))) {
      const plan = planAnswer(r.q.text, r.chunks, 8, { similar, tag: posTags }, weights);
      const sentence = plan.selected[0]?.text ?? "";
      f1.push(maxOver(tokenF1, plan.answer ? sentence.slice(plan.answer.start, plan.answer.end) : sentence, r.q.golds));
      of.push(r.q.vault);
    }
  }
  const mean = f1.reduce((a, b) => a + b, 0) / f1.length;
  const [lo, hi] = meanInterval(f1, of);
  process.stdout.write(`  cv end to end, ${names.length} features: XQuAD F1 ${pct(mean)} (95% interval over articles ${pct(lo)}-${pct(hi)}; ${f1.length}, never abstaining)\n`);
  return { mean, f1, vaults: of };
}

/**
 * --cv-sentences: 4-fold cross-validation over the tune vaults, end to end, of SENTENCE with the weight of the terms a
 * sentence states another way (prevRef, morph; as a share of the overlap weight) at each `scale`: per fold SPAN fitted on
 * the other vaults, the fold's questions re-planned. XQuAD F1 never abstaining and gold in the chosen sentence; LoCoMo
 * top citation from an evidence turn, by category.
 */
function crossValidateSentences(xq: Harvested[], lo: Harvested[]): void {
  const rows = [...xq, ...lo];
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const spanNames = Object.keys(xq.find((r) => r.spans.length > 0)!.spans[0]!.features);
  const spanRows = [...xq, ...lo.filter((r) => r.q.extractable)];
  const spanWeights = [0, 1, 2, 3].map((fold) => foldSpanWeights(spanRows, spanNames, vaults, fold));
  for (const scale of [0, 0.25, 0.5, 0.75, 1]) {
    const sentenceWeights = { ...SENTENCE, prevRef: scale * SENTENCE.overlap, morph: scale * SENTENCE.overlap };
    let f1 = 0;
    let holds = 0;
    const cats = new Map<string, { n: number; hit: number }>();
    for (const r of rows) {
      const plan = planAnswer(r.q.text, r.chunks, 8, { similar, tag: posTags }, spanWeights[vaults.indexOf(r.q.vault) % 4], sentenceWeights);
      const best = plan.selected[0];
      const sentence = best?.text ?? "";
      if (!r.q.id.includes("#")) {
        f1 += maxOver(tokenF1, plan.answer ? sentence.slice(plan.answer.start, plan.answer.end) : sentence, r.q.golds);
        if (r.q.golds.some((g) => containsNormalized(sentence, g))) holds++;
      } else if (r.q.golds.length > 0) {
        const c = cats.get(r.q.group) ?? { n: 0, hit: 0 };
        c.n++;
        if (best && r.q.goldSources.includes(r.chunks.find((x) => x.key === best.key)?.source ?? "")) c.hit++;
        cats.set(r.q.group, c);
      }
    }
    process.stdout.write(`  cv sentences, prevRef = morph = ${scale} x overlap: XQuAD F1 ${pct(f1 / xq.length)}, gold in the chosen sentence ${pct(holds / xq.length)}; LoCoMo top_cite_evidence ${[...cats].map(([k, c]) => `${k} ${pct(c.hit / c.n)}`).join(", ")}\n`);
  }
}

/** --ablate: the cross-validated F1 (end to end) without each span feature in turn (a feature whose removal raises it is not worth keeping). */
function ablate(rows: Harvested[]): void {
  const names = Object.keys(rows.find((r) => r.spans.length > 0)!.spans[0]!.features);
  const all = crossValidateEndToEnd(rows, null);
  for (const n of names) {
    process.stdout.write(`  without ${n}:`);
    const without = crossValidateEndToEnd(rows, names.filter((m) => m !== n));
    const [lo, hi] = meanInterval(without.f1.map((x, i) => x - all.f1[i]!), all.vaults); // paired by question, articles resampled
    process.stdout.write(`    change ${pct(without.mean - all.mean)}, 95% interval over articles ${pct(lo)} to ${pct(hi)}\n`);
  }
}

/** Fits SPAN on the candidate spans (ranking, see fitRanking), then scans SPAN_MIN, below which a "what" question gets its whole sentence. */
function fitSpans(rows: Harvested[], rank: boolean): void {
  const withGold = rows.filter((r) => r.q.golds.length > 0 && r.spans.length > 0);
  const names = Object.keys(withGold[0]!.spans[0]!.features);
  const cands = withGold.flatMap((r) => r.spans);
  const f = rank ? fitSpanRanking(withGold, names) : fitLogistic(cands.map((c) => names.map((n) => c.features[n]!)), cands.map((c) => (c.f1 >= 0.5 ? 1 : 0)), 1);
  const weights = Object.fromEntries([...names.map((n, i) => [n, Number(f.weights[i]!.toFixed(2))]), ["bias", Number(f.bias.toFixed(2))]]);
  for (const type of ["entity", "person", "place", "number", "date"]) {
    const rs = withGold.filter((r) => r.type === type);
    const oracle = rs.map((r) => Math.max(...r.spans.map((c) => c.f1)));
    process.stdout.write(`  oracle ${type}: best candidate F1 ${pct(oracle.reduce((x, y) => x + y, 0) / rs.length)}, sentence F1 ${pct(rs.reduce((x, r) => x + r.sentenceF1, 0) / rs.length)}, candidates/question ${(rs.reduce((x, r) => x + r.spans.length, 0) / rs.length).toFixed(1)}\n`);
  }
  process.stdout.write(`\nfitted SPAN (${cands.length} candidates of ${withGold.length} questions):\n  ${JSON.stringify(weights)}\n`);
  for (const t of [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4]) {
    const by = (type: string) => {
      const rs = withGold.filter((r) => r.type === type);
      const f1 = rs.map((r) => {
        const scored = r.spans.map((c) => ({ c, p: predict(f, names.map((n) => c.features[n]!)) }));
        const top = scored.reduce((a, b) => (b.p > a.p ? b : a));
        return type === "entity" && top.p < t ? r.sentenceF1 : top.c.f1;
      });
      return f1.reduce((a, b) => a + b, 0) / Math.max(1, f1.length);
    };
    process.stdout.write(`  SPAN_MIN ${t}: entity F1 ${pct(by("entity"))}, person ${pct(by("person"))}, place ${pct(by("place"))}, number ${pct(by("number"))}, date ${pct(by("date"))}\n`);
  }
}

const args = process.argv.slice(2);
const xq = await harvest("xquad");
const lo = await harvest("locomo-answers");
report(xq, lo);
const only = args.find((a) => a.startsWith("--features="))?.slice("--features=".length).split(",") ?? null;
if (args.includes("--fit")) fit([...xq, ...lo], only);
if (args.includes("--cv-confidence")) crossValidateConfidence([...xq, ...lo], only);
if (args.includes("--cv")) crossValidate([...xq, ...lo.filter((r) => r.q.extractable)], only);
if (args.includes("--cv")) crossValidateEndToEnd([...xq, ...lo.filter((r) => r.q.extractable)], only);
if (args.includes("--ablate")) ablate([...xq, ...lo.filter((r) => r.q.extractable)]);
if (args.includes("--cv-sentences")) crossValidateSentences(xq, lo);
if (args.includes("--fit-spans")) fitSpans([...xq, ...lo.filter((r) => r.q.extractable)], !args.includes("--binary"));
progress(`answered at ${ANSWER_THRESHOLD}: xquad ${xq.filter((r) => answeredAt(r.o, ANSWER_THRESHOLD)).length}/${xq.length}, locomo ${lo.filter((r) => answeredAt(r.o, ANSWER_THRESHOLD)).length}/${lo.length}`);

