// Tuning SPAN (src/domain/answering/span-score.ts): the ranking fit, 4-fold cross-validation over the tune vaults (per candidate and end
// to end), the paired ablation of each feature, and the fit that is pasted into the source.
import { planAnswer, SPAN_MIN } from "../../../src/domain/answering/answer.ts";
import { meanInterval } from "../../bootstrap.ts";
import { fitLogistic, predict } from "../../calibrate/logistic.ts";
import { fitRanking } from "../ranking.ts";
import { maxOver, tokenF1 } from "../squad.ts";
import { isLocomo, pct, tuneLanguage, type Harvested } from "./harvest.ts";

/** The SPAN ranking fit over each question's candidate spans (target: token F1), see ranking.ts. */
export function fitSpanRanking(rows: Harvested[], names: string[]): { weights: number[]; bias: number } {
  return fitRanking(rows.map((r) => r.spans.map((c) => ({ x: names.map((n) => c.features[n]!), t: c.f1 }))));
}

/** SPAN over `names`: the ranking fit, or (`rank` false) a plain logistic fit of "token F1 >= 0.5" over all candidates. */
function fitSpanModel(rows: Harvested[], names: string[], rank: boolean): { weights: number[]; bias: number } {
  if (rank) return fitSpanRanking(rows, names);
  const cands = rows.flatMap((r) => r.spans);
  return fitLogistic(
    cands.map((c) => names.map((n) => c.features[n]!)),
    cands.map((c) => (c.f1 >= 0.5 ? 1 : 0)),
    1,
  );
}

/** The rows SPAN can learn from (a gold answer, candidates), of the vaults outside `fold` (of 4, by the vault's index in `vaults`; all with no fold). */
function trainingRows(rows: Harvested[], vaults: readonly string[], fold?: number): Harvested[] {
  return rows.filter(
    (r) => (fold === undefined || vaults.indexOf(r.q.vault) % 4 !== fold) && r.q.golds.length > 0 && r.spans.length > 0,
  );
}

/** SPAN fitted on the candidates of the vaults outside `fold`, as weights by feature name. */
export function foldSpanWeights(
  rows: Harvested[],
  names: string[],
  vaults: readonly string[],
  fold: number,
): Record<string, number> {
  const f = fitSpanRanking(trainingRows(rows, vaults, fold), names);
  return Object.fromEntries([...names.map((k, i) => [k, f.weights[i]!]), ["bias", f.bias]]);
}

/**
 * --cv: 4-fold cross-validation over the tune vaults of the span scorer (binary vs ranking fit; all features, or those of
 * --features=...): mean XQuAD answer F1 never abstaining, at each SPAN_MIN (the whole sentence when the best "what" span
 * is less likely; also when there is no span), and the share of extractable LoCoMo golds the answer contains.
 */
export function crossValidate(rows: Harvested[], only: string[] | null): void {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const withSpans = rows.find((r) => r.spans.length > 0)!;
  const names = Object.keys(withSpans.spans[0]!.features).filter((n) => !only || only.includes(n));
  const mins = [0, 0.025, 0.05, 0.075, 0.1, 0.15];
  for (const rank of [false, true]) {
    const xquad = mins.map(() => 0);
    let locomo = 0;
    for (const fold of [0, 1, 2, 3]) {
      const f = fitSpanModel(trainingRows(rows, vaults, fold), names, rank);
      for (const r of rows.filter((x) => vaults.indexOf(x.q.vault) % 4 === fold)) {
        const scored = r.spans.map((c) => ({
          c,
          p: predict(
            f,
            names.map((n) => c.features[n]!),
          ),
        }));
        const top = scored.length ? scored.reduce((a, b) => (b.p > a.p ? b : a)) : null;
        const f1 = (min: number) => (!top || (r.type === "entity" && top.p < min) ? r.sentenceF1 : top.c.f1);
        if (isLocomo(r))
          locomo += top && f1(SPAN_MIN) === top.c.f1 ? (top.c.contains ? 1 : 0) : r.sentenceF1 > 0 ? 1 : 0;
        else mins.forEach((m, i) => (xquad[i]! += f1(m)));
      }
    }
    const nx = rows.filter((r) => !isLocomo(r)).length;
    const nl = rows.length - nx;
    process.stdout.write(
      `  cv ${names.length} features, ${rank ? "ranking" : "binary"}: XQuAD F1 ${mins.map((m, i) => `${pct(xquad[i]! / nx)} at SPAN_MIN ${m}`).join(", ")} (${nx}); LoCoMo extractable contained ${pct(locomo / nl)} (${nl})\n`,
    );
  }
}

/**
 * End-to-end cross-validation: per fold, SPAN fitted on the other vaults' candidates, then the fold's questions planned
 * anew with it (sentence choice included, as the service would) and the answer scored: XQuAD F1 never abstaining.
 */
export function crossValidateEndToEnd(
  rows: Harvested[],
  only: string[] | null,
): { mean: number; f1: number[]; vaults: string[] } {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const names = Object.keys(rows.find((r) => r.spans.length > 0)!.spans[0]!.features).filter(
    (n) => !only || only.includes(n),
  );
  const f1: number[] = []; // per XQuAD question, in the same order for every feature set (fold, then row order): differences pair up
  const of: string[] = [];
  for (const fold of [0, 1, 2, 3]) {
    const weights = foldSpanWeights(rows, names, vaults, fold);
    for (const r of rows.filter((x) => vaults.indexOf(x.q.vault) % 4 === fold && !isLocomo(x))) {
      const plan = planAnswer(r.q.text, r.chunks, 8, tuneLanguage(), weights);
      const sentence = plan.selected[0]?.text ?? "";
      f1.push(maxOver(tokenF1, plan.answer ? sentence.slice(plan.answer.start, plan.answer.end) : sentence, r.q.golds));
      of.push(r.q.vault);
    }
  }
  const mean = f1.reduce((a, b) => a + b, 0) / f1.length;
  const [lo, hi] = meanInterval(f1, of);
  process.stdout.write(
    `  cv end to end, ${names.length} features: XQuAD F1 ${pct(mean)} (95% interval over articles ${pct(lo)}-${pct(hi)}; ${f1.length}, never abstaining)\n`,
  );
  return { mean, f1, vaults: of };
}

/** --ablate: the cross-validated F1 (end to end) without each span feature in turn (a feature whose removal raises it is not worth keeping). */
export function ablate(rows: Harvested[]): void {
  const names = Object.keys(rows.find((r) => r.spans.length > 0)!.spans[0]!.features);
  const all = crossValidateEndToEnd(rows, null);
  for (const n of names) {
    process.stdout.write(`  without ${n}:`);
    const without = crossValidateEndToEnd(
      rows,
      names.filter((m) => m !== n),
    );
    const [lo, hi] = meanInterval(
      without.f1.map((x, i) => x - all.f1[i]!),
      all.vaults,
    ); // paired by question, articles resampled
    process.stdout.write(
      `    change ${pct(without.mean - all.mean)}, 95% interval over articles ${pct(lo)} to ${pct(hi)}\n`,
    );
  }
}

/** Fits SPAN on the candidate spans (ranking, see fitRanking), then scans SPAN_MIN, below which a "what" question gets its whole sentence. */
export function fitSpans(rows: Harvested[], rank: boolean): void {
  const withGold = trainingRows(rows, []);
  const names = Object.keys(withGold[0]!.spans[0]!.features);
  const f = fitSpanModel(withGold, names, rank);
  const weights = Object.fromEntries([
    ...names.map((n, i) => [n, Number(f.weights[i]!.toFixed(2))]),
    ["bias", Number(f.bias.toFixed(2))],
  ]);
  for (const type of ["entity", "person", "place", "number", "date"]) {
    const rs = withGold.filter((r) => r.type === type);
    const oracle = rs.map((r) => Math.max(...r.spans.map((c) => c.f1)));
    process.stdout.write(
      `  oracle ${type}: best candidate F1 ${pct(oracle.reduce((x, y) => x + y, 0) / rs.length)}, sentence F1 ${pct(rs.reduce((x, r) => x + r.sentenceF1, 0) / rs.length)}, candidates/question ${(rs.reduce((x, r) => x + r.spans.length, 0) / rs.length).toFixed(1)}\n`,
    );
  }
  process.stdout.write(
    `\nfitted SPAN (${withGold.reduce((n, r) => n + r.spans.length, 0)} candidates of ${withGold.length} questions):\n  ${JSON.stringify(weights)}\n`,
  );
  for (const t of [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4]) {
    const by = (type: string) => {
      const rs = withGold.filter((r) => r.type === type);
      const f1 = rs.map((r) => {
        const scored = r.spans.map((c) => ({
          c,
          p: predict(
            f,
            names.map((n) => c.features[n]!),
          ),
        }));
        const top = scored.reduce((a, b) => (b.p > a.p ? b : a));
        return type === "entity" && top.p < t ? r.sentenceF1 : top.c.f1;
      });
      return f1.reduce((a, b) => a + b, 0) / Math.max(1, f1.length);
    };
    process.stdout.write(
      `  SPAN_MIN ${t}: entity F1 ${pct(by("entity"))}, person ${pct(by("person"))}, place ${pct(by("place"))}, number ${pct(by("number"))}, date ${pct(by("date"))}\n`,
    );
  }
}
