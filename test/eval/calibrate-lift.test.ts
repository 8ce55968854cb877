// The calibration fit ranks hybrid rows as the retriever does: a thread neighbour's base logit is lifted to its hit's
// less the step, and a neighbour the lift brought into the pool is one of the query's rows.
import { expect, it } from "vitest";
import { fuse } from "../../src/domain/retrieval/fusion.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { scoreRows } from "../../eval/calibrate/fit.ts";
import type { Sample } from "../../eval/calibrate/harvest.ts";

const row = (lexical: number, extra: Partial<Sample> = {}): Sample => ({
  set: "locomo",
  query: "q",
  split: "fit",
  lexical,
  dense: 0.5,
  inLexicalPool: true,
  inDensePool: false,
  relevant: 0,
  liftedBy: [],
  ...extra,
});

it("lifts a thread neighbour to its hit's base less the step, in hybrid only", () => {
  const fusion = defaultRetrievalConfig.hybrid.fusion;
  const step = defaultRetrievalConfig.threads!.step;
  const hit = row(0.9);
  const reply = row(0, { inLexicalPool: false, liftedBy: [{ lexical: 0.9, dense: 0.5 }], relevant: 1 });
  const other = row(0.3);
  const [hybrid] = scoreRows([hit, reply, other], "hybrid", fusion);
  const hitBase = fuse({ lexical: 0.9, dense: 0.5 }, fusion).logit;
  expect(hybrid!.map((r) => r.sample)).toEqual([hit, reply, other]);
  expect(hybrid![1]!.base).toBeCloseTo(hitBase - step, 9);
  const [lexical] = scoreRows([hit, reply, other], "lexicalOnly", defaultRetrievalConfig.lexicalOnly.fusion);
  expect(lexical!.map((r) => r.sample)).toEqual([hit, other]);
});
