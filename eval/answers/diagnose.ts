// `node --import tsx eval/answers/diagnose.ts`: where XQuAD F1 is lost on the TUNE split, stage by stage (retrieval, sentence
// choice, span choice), never abstaining. Never reads the test split.
import { planAnswer } from "../../src/domain/answering/answer.ts";
import { readsAsName } from "../../src/nlp/compromise-names.ts";
import { posTags } from "../../src/nlp/wink-tagger.ts";
import type { WordSimilarity } from "../../src/ports/embedding.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { openHarness } from "../harness.ts";
import { ingestSet } from "../ingest.ts";
import { textTable } from "../table.ts";
import { loadXquad } from "./xquad.ts";
import { containsNormalized, maxOver, tokenF1 } from "./squad.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

const aset = loadXquad();
const questions = aset.questions.filter((q) => q.split === "tune");
const { harness, primary } = await openHarness("xquad-diagnose", defaultRetrievalConfig);
const words = primary.embedder as unknown as Partial<WordSimilarity>; // the GloVe embedder, as GroundedService gets it
const similar = words.similarity ? (a: string, b: string) => words.similarity!(a, b) : undefined;
const holds = (text: string, golds: readonly string[]) => golds.some((g) => containsNormalized(text, g));
const stages = {
  n: 0,
  retrieved: 0,
  topChunkGold: 0,
  inSomeSentence: 0,
  sentenceHolds: 0,
  f1: 0,
  f1Holds: 0,
  oracleHolds: 0,
  exactCandidate: 0,
  sentenceF1Holds: 0,
  f1Misses: 0,
};
const byType = new Map<string, { n: number; holds: number; f1: number; f1Holds: number; oracle: number }>();
const dump = process.env.DUMP;
const ranks = new Map<string, number>();
try {
  const { workspaces } = await ingestSet(primary, aset.set);
  for (const q of questions) {
    // The service's own evidence (retrieval and cognitive weighing, side-effect free), re-planned keeping every sentence.
    const call = {
      workspaceId: workspaces.get(q.vault)!,
      workspaceName: `eval-xquad-${q.vault}`,
      tokenId: "eval",
      actorId: null,
      scopes: ALL_SCOPES,
    };
    const d = await primary.grounded.deliberate(call, { question: q.text, k: 8 });
    const chunks = d.chunks.map((c) => ({
      key: c.id,
      text: c.text,
      score: d.scoreOf.get(c.id) ?? 0,
      source: c.sourcePath,
    }));
    const plan = planAnswer(q.text, chunks, 10_000, { similar, tag: posTags, readsAsName });
    const best = plan.selected[0];
    const sentence = best?.text ?? "";
    const answer = best ? (plan.answer ? sentence.slice(plan.answer.start, plan.answer.end) : sentence) : "";
    const f1 = maxOver(tokenF1, answer, q.golds);
    const ok = holds(sentence, q.golds);
    const oracle = Math.max(
      0,
      ...plan.spans.map((s) => maxOver(tokenF1, sentence.slice(s.span.start, s.span.end), q.golds)),
    );
    stages.n++;
    const goldRank = plan.ranked.findIndex((x) => holds(x.text, q.golds));
    ranks.set(
      goldRank < 0 ? "none" : goldRank > 3 ? "4+" : String(goldRank),
      (ranks.get(goldRank < 0 ? "none" : goldRank > 3 ? "4+" : String(goldRank)) ?? 0) + 1,
    );
    if (chunks.some((c) => q.goldSources.includes(c.source))) stages.retrieved++;
    if (best && q.goldSources.includes(chunks.find((c) => c.key === best.key)!.source)) stages.topChunkGold++;
    if (plan.ranked.some((s) => holds(s.text, q.golds))) stages.inSomeSentence++;
    stages.f1 += f1;
    if (ok) {
      stages.sentenceHolds++;
      stages.f1Holds += f1;
      stages.oracleHolds += oracle;
      stages.sentenceF1Holds += maxOver(tokenF1, sentence, q.golds);
      if (oracle === 1) stages.exactCandidate++;
    } else stages.f1Misses += f1;
    const t = byType.get(plan.answerType) ?? { n: 0, holds: 0, f1: 0, f1Holds: 0, oracle: 0 };
    t.n++;
    t.f1 += f1;
    if (ok) {
      t.holds++;
      t.f1Holds += f1;
      t.oracle += oracle;
    }
    byType.set(plan.answerType, t);
    if (dump && (dump === "all" || (dump === "span" && ok && f1 < 0.5) || (dump === "sentence" && !ok))) {
      const rank = plan.ranked.findIndex((s) => holds(s.text, q.golds));
      process.stderr.write(
        `\n[${plan.answerType}] Q: ${q.text}\nG: ${q.golds.join(" | ")}\nA: ${answer} (f1 ${f1.toFixed(2)}, oracle ${oracle.toFixed(2)})\nS: ${sentence}\n`,
      );
      if (!ok && rank >= 0) process.stderr.write(`R${rank}: ${plan.ranked[rank]!.text}\n`);
      if (ok)
        process.stderr.write(
          `C: ${plan.spans
            .slice(0, 6)
            .map((s) => `[${sentence.slice(s.span.start, s.span.end)}] ${s.score.toFixed(2)}`)
            .join("  ")}\n`,
        );
      const feats = (x: (typeof plan.spans)[number]) =>
        Object.entries(x.features)
          .filter(([, v]) => v)
          .map(([k, v]) => `${k}=${Number(v.toFixed(2))}`)
          .join(" ");
      const gold = plan.spans.find(
        (x) => maxOver(tokenF1, sentence.slice(x.span.start, x.span.end), q.golds) === oracle,
      );
      if (ok && gold && plan.spans[0] && gold !== plan.spans[0])
        process.stderr.write(`  top  ${feats(plan.spans[0])}\n  gold ${feats(gold)}\n`);
    }
  }
} finally {
  await harness.close();
}
const pct = (x: number) => (100 * x).toFixed(1);
const s = stages;
process.stdout.write(
  `\nXQuAD tune (${s.n} questions), never abstaining:\n` +
    textTable(
      ["stage", "%"],
      [
        ["gold paragraph among the k=8 chunks", pct(s.retrieved / s.n)],
        ["best sentence from the gold paragraph", pct(s.topChunkGold / s.n)],
        ["gold text in some retrieved sentence", pct(s.inSomeSentence / s.n)],
        ["gold text in the best sentence", pct(s.sentenceHolds / s.n)],
        ["F1 overall", pct(s.f1 / s.n)],
        ["F1 | gold in best sentence", pct(s.f1Holds / s.sentenceHolds)],
        ["F1 | gold not in best sentence", pct(s.f1Misses / Math.max(1, s.n - s.sentenceHolds))],
        ["whole-sentence F1 | gold in best sentence", pct(s.sentenceF1Holds / s.sentenceHolds)],
        ["oracle candidate F1 | gold in best sentence", pct(s.oracleHolds / s.sentenceHolds)],
        ["gold exactly a candidate | gold in best sentence", pct(s.exactCandidate / s.sentenceHolds)],
      ],
    ) +
    `\n\nby answer type:\n` +
    textTable(
      ["type", "n", "gold in sentence", "F1", "F1 | in sentence", "oracle | in sentence"],
      [...byType].map(([k, t]) => [
        k,
        t.n,
        pct(t.holds / t.n),
        pct(t.f1 / t.n),
        pct(t.f1Holds / Math.max(1, t.holds)),
        pct(t.oracle / Math.max(1, t.holds)),
      ]),
    ) +
    `\n\nrank of the first sentence holding the gold text: ${[...ranks]
      .sort()
      .map(([k, v]) => `${k}: ${pct(v / stages.n)}`)
      .join(", ")}\n`,
);
