// The calibration fit ranks hybrid rows as the retriever does: a thread neighbour's base logit is lifted to its hit's
// less the step (and a neighbour the lift brought into the pool is one of the query's rows), a named speaker's turn
// is lifted, and a turn in a weaker session is lowered.
import { expect, it } from "vitest";
import { fuse } from "../../src/domain/retrieval/fusion.ts";
import { defaultRetrievalConfig } from "../../src/search/retrieval-config.ts";
import { scoreRows } from "../../eval/calibrate/fit.ts";
import type { Sample } from "../../eval/calibrate/harvest.ts";

const fusion = defaultRetrievalConfig.hybrid.fusion;
const baseOf = (lexical: number): number => fuse({ lexical, dense: 0.5 }, fusion).logit;

const row = (id: number, lexical: number, extra: Partial<Sample> = {}): Sample => ({
  set: "locomo",
  query: "q",
  split: "fit",
  lexical,
  dense: 0.5,
  inLexicalPool: true,
  inDensePool: false,
  relevant: 0,
  id,
  neighbours: [],
  namedSpeaker: false,
  session: null,
  ...extra,
});

it("lifts a thread neighbour to its hit's base less the step, in hybrid only", () => {
  const step = defaultRetrievalConfig.threads!.step;
  const hit = row(1, 0.9, { neighbours: [2] });
  const reply = row(2, 0, { inLexicalPool: false, relevant: 1 });
  const other = row(3, 0.3);
  const stray = row(4, 0, { inLexicalPool: false });
  const [hybrid] = scoreRows([hit, reply, other, stray], "hybrid", fusion);
  expect(hybrid!.map((r) => r.sample)).toEqual([hit, reply, other]);
  expect(hybrid![1]!.base).toBeCloseTo(baseOf(0.9) - step, 9);
  const [lexical] = scoreRows([hit, reply, other], "lexicalOnly", defaultRetrievalConfig.lexicalOnly.fusion);
  expect(lexical!.map((r) => r.sample)).toEqual([hit, other]);
});

it("applies the speaker and session rules as the retriever does", () => {
  const speaker = defaultRetrievalConfig.speakers!.weight;
  const session = defaultRetrievalConfig.sessions!.weight;
  const best = row(1, 0.9, { session: 1 });
  const named = row(2, 0.5, { namedSpeaker: true, session: 1 });
  const elsewhere = row(3, 0.6, { session: 3 });
  const [hybrid] = scoreRows([best, named, elsewhere], "hybrid", fusion);
  const bases = new Map(hybrid!.map((r) => [r.sample.id, r.base]));
  expect(bases.get(1)).toBeCloseTo(baseOf(0.9), 9);
  expect(bases.get(2)).toBeCloseTo(baseOf(0.5) + speaker, 9);
  const top = Math.max(baseOf(0.9), baseOf(0.5) + speaker);
  expect(bases.get(3)).toBeCloseTo(baseOf(0.6) - session * (top - baseOf(0.6)), 9);
});
