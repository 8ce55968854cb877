// Tuning SENTENCE (src/domain/answering/sentence-score.ts): --cv-sentences scans the weight of the indirect matches end to end.
import { planAnswer, SENTENCE } from "../../../src/domain/answering/answer.ts";
import { containsNormalized, maxOver, tokenF1 } from "../squad.ts";
import { isLocomo, pct, tuneLanguage, type Harvested } from "./harvest.ts";
import { foldSpanWeights } from "./spans.ts";

/**
 * --cv-sentences: 4-fold cross-validation over the tune vaults, end to end, of SENTENCE with the weight of the terms a
 * sentence states another way (prevRef, morph; as a share of the overlap weight) at each `scale`: per fold SPAN fitted on
 * the other vaults, the fold's questions re-planned. XQuAD F1 never abstaining and gold in the chosen sentence; LoCoMo
 * top citation from an evidence turn, by category.
 */
export function crossValidateSentences(xq: Harvested[], lo: Harvested[]): void {
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
      const plan = planAnswer(
        r.q.text,
        r.chunks,
        8,
        tuneLanguage(),
        spanWeights[vaults.indexOf(r.q.vault) % 4],
        sentenceWeights,
      );
      const best = plan.selected[0];
      const sentence = best?.text ?? "";
      if (!isLocomo(r)) {
        f1 += maxOver(tokenF1, plan.answer ? sentence.slice(plan.answer.start, plan.answer.end) : sentence, r.q.golds);
        if (r.q.golds.some((g) => containsNormalized(sentence, g))) holds++;
      } else if (r.q.golds.length > 0) {
        const c = cats.get(r.q.group) ?? { n: 0, hit: 0 };
        c.n++;
        if (best && r.q.goldSources.includes(r.chunks.find((x) => x.key === best.key)?.source ?? "")) c.hit++;
        cats.set(r.q.group, c);
      }
    }
    process.stdout.write(
      `  cv sentences, prevRef = morph = ${scale} x overlap: XQuAD F1 ${pct(f1 / xq.length)}, gold in the chosen sentence ${pct(holds / xq.length)}; LoCoMo top_cite_evidence ${[...cats].map(([k, c]) => `${k} ${pct(c.hit / c.n)}`).join(", ")}\n`,
    );
  }
}
