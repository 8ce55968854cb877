// Tuning CONFIDENCE (src/domain/answering/answer.ts): --fit fits it on the tune rows, --cv-confidence cross-validates it over the tune vaults.
import { fitLogistic, logLoss, predict } from "../../calibrate/logistic.ts";
import { textTable } from "../../table.ts";
import { CONFIDENT, reliability } from "../trust.ts";
import { maxOver, tokenF1 } from "../squad.ts";
import { isLocomo, pct, type Harvested } from "./harvest.ts";

export function fitConfidence(all: Harvested[], only: string[] | null, gate: readonly string[] = []): void {
  // A gated row (one of the `gate` features is 1) would be withheld at any floor whatever the weights: not fitted.
  const rows = all.filter((r) => !gate.some((g) => r.features[g] === 1));
  const names = Object.keys(rows[0]!.features).filter((n) => (!only || only.includes(n)) && !gate.includes(n));
  // XQuAD and LoCoMo rows pooled (325 and 304 tune questions: about equal weight); L2 1 as in eval/calibrate.
  const xs = rows.map((r) => names.map((n) => r.features[n]!));
  const ys = rows.map((r) => (r.correct ? 1 : 0));
  const f = fitLogistic(xs, ys, 1);
  const weights = Object.fromEntries([
    ...names.map((n, i) => [n, Number(f.weights[i]!.toFixed(2))]),
    ["bias", Number(f.bias.toFixed(2))],
  ]);
  process.stdout.write(
    `\nfitted CONFIDENCE (tune split, ${rows.length} rows (${all.length - rows.length} gated by ${gate.join(",")}), ${ys.filter(Boolean).length} correct, log-loss ${f.logLoss.toFixed(4)}):\n  ${JSON.stringify(weights)}\n`,
  );
  const p = rows.map((r, i) => predict(f, xs[i]!));
  for (const t of [0.3, 0.4, 0.5, 0.6]) {
    const acc = (rs: Harvested[]) => pct(rs.filter((r) => p[rows.indexOf(r)]! >= t === r.correct).length / rs.length);
    const abst = (rs: Harvested[]) => pct(rs.filter((r) => p[rows.indexOf(r)]! < t).length / rs.length);
    const lo = rows.filter((r) => isLocomo(r));
    const xq = rows.filter((r) => !isLocomo(r));
    process.stdout.write(
      `  t=${t}: decision accuracy ${acc(rows)} (xquad ${acc(xq)}, locomo ${acc(lo)}); abstain xquad ${abst(xq)}, locomo 1-4 ${abst(lo.filter((r) => r.q.golds.length))}, locomo 5 ${abst(lo.filter((r) => !r.q.golds.length))}\n`,
    );
  }
}

/**
 * --cv-confidence: CONFIDENCE cross-validated, 4 folds over the tune vaults (XQuAD and LoCoMo pooled as in --fit): per
 * fold fitted on the other vaults, the fold's rows predicted. Held-out log-loss, AUC within each set (ranking, whatever
 * the level), and at each threshold decision accuracy, XQuAD abstention and F1, LoCoMo false abstention (1-4) and
 * category-5 correct abstention. A row without evidence abstains at any threshold, as in the service.
 */
export function crossValidateConfidence(rows: Harvested[], only: string[] | null, gate: readonly string[] = []): void {
  const vaults = [...new Set(rows.map((r) => r.q.vault))].sort();
  const names = Object.keys(rows[0]!.features).filter((n) => (!only || only.includes(n)) && !gate.includes(n));
  // A gated row (one of the `gate` features is 1) is withheld at any floor, as "no evidence" is: not fitted, never scored.
  const gated = (i: number) => gate.some((g) => rows[i]!.features[g] === 1);
  const xs = rows.map((r) => names.map((n) => r.features[n]!));
  const ys = rows.map((r) => (r.correct ? 1 : 0));
  const p = rows.map(() => 0);
  for (const fold of [0, 1, 2, 3]) {
    const train = rows.map((_, i) => i).filter((i) => vaults.indexOf(rows[i]!.q.vault) % 4 !== fold && !gated(i));
    const f = fitLogistic(
      train.map((i) => xs[i]!),
      train.map((i) => ys[i]!),
      1,
    );
    rows.forEach(
      (r, i) => vaults.indexOf(r.q.vault) % 4 === fold && (p[i] = r.o.evidence && !gated(i) ? predict(f, xs[i]!) : 0),
    );
  }
  const idx = (keep: (r: Harvested) => boolean) => rows.map((_, i) => i).filter((i) => keep(rows[i]!));
  const xq = idx((r) => !isLocomo(r));
  const lo = idx((r) => isLocomo(r));
  const auc = (ix: number[]) => {
    const pos = ix.filter((i) => ys[i]);
    const neg = ix.filter((i) => !ys[i]);
    const wins = pos.reduce(
      (s, a) => s + neg.reduce((t, b) => t + (p[a]! > p[b]! ? 1 : p[a] === p[b] ? 0.5 : 0), 0),
      0,
    );
    return (wins / Math.max(1, pos.length * neg.length)).toFixed(3);
  };
  process.stdout.write(
    `\ncv CONFIDENCE (${names.join(",")}${gate.length ? `; gate ${gate.join(",")}` : ""}): held-out log-loss ${logLoss(p, ys).toFixed(4)}, AUC xquad ${auc(xq)}, locomo ${auc(lo)}\n`,
  );
  for (const [label, ix] of [
    ["xquad", xq],
    ["locomo", lo],
  ] as const) {
    const pairs = ix
      .filter((i) => rows[i]!.o.evidence && !gated(i))
      .map((i) => ({ confidence: p[i]!, right: ys[i] === 1 }));
    const r = reliability(pairs);
    const sure = pairs.filter((x) => x.confidence >= CONFIDENT);
    process.stdout.write(
      `  ${label}: ECE ${pct(r.ece)}, confidence >= 0.9: ${sure.length} answers, ${pct(sure.filter((x) => x.right).length / sure.length)} right; bins ${r.bins.map((b) => `${b.n}:${pct(b.meanConfidence)}/${pct(b.right)}`).join(" ")}\n`,
    );
  }
  const rowsOut = [0.06, 0.08, 0.1, 0.12, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.2, 0.25, 0.3, 0.5].map((t) => {
    const ans = (i: number) => rows[i]!.o.evidence && !gated(i) && p[i]! >= t;
    const answerable = idx((r) => isLocomo(r) && r.q.golds.length > 0);
    const share = (ix: number[], keep: (i: number) => boolean) => pct(ix.filter(keep).length / ix.length);
    const f1 = xq.reduce((s, i) => s + (ans(i) ? tokenF1Of(rows[i]!) : 0), 0) / xq.length;
    return [
      t.toFixed(2),
      share(
        rows.map((_, i) => i),
        (i) => ans(i) === rows[i]!.correct,
      ),
      share(xq, (i) => !ans(i)),
      pct(f1),
      share(answerable, (i) => !ans(i)),
      share(answerable, (i) => ans(i) && rows[i]!.correct),
      pct(answerable.filter((i) => ans(i) && rows[i]!.correct).length / answerable.filter(ans).length),
      share(
        idx((r) => isLocomo(r) && r.q.golds.length === 0),
        (i) => !ans(i),
      ),
    ];
  });
  process.stdout.write(
    `${textTable(["t", "decision acc", "xq abstain", "xq f1", "lo false abst", "lo right", "lo right|ans", "lo cat5 abst"], rowsOut)}\n`,
  );
}

const tokenF1Of = (r: Harvested) => maxOver(tokenF1, r.o.answer ?? "", r.q.golds);
