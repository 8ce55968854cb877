// Hit rate and precision of extracted items against QMSum gold turn ranges, and the same for uniformly random turns.
import { mulberry32 } from "../../src/domain/text/prng.ts";
import type { GoldQuery, Kind } from "./data.ts";

export interface Tally {
  /** Queries of the kind, and those whose gold range holds at least one predicted turn. */
  queries: number;
  hits: number;
  /** Predicted items in meetings that have a query of the kind, and those with a cited turn inside one of its gold ranges. */
  items: number;
  inside: number;
  /** Turns of those meetings, and how many of them some gold range of the kind covers (random precision ~ covered / turns). */
  turns: number;
  covered: number;
}

export const emptyTally = (): Tally => ({ queries: 0, hits: 0, items: 0, inside: 0, turns: 0, covered: 0 });

export function addTally(a: Tally, b: Tally): Tally {
  return {
    queries: a.queries + b.queries,
    hits: a.hits + b.hits,
    items: a.items + b.items,
    inside: a.inside + b.inside,
    turns: a.turns + b.turns,
    covered: a.covered + b.covered,
  };
}

const inSpan = (turn: number, [a, b]: [number, number]) => turn >= a && turn <= b;

/** One meeting, one kind: `predicted` holds each extracted item's cited turns. */
export function tallyMeeting(
  queries: readonly GoldQuery[],
  kind: Kind,
  predicted: readonly (readonly number[])[],
  turns: number,
): Tally {
  const gold = queries.filter((q) => q.kinds.includes(kind));
  if (gold.length === 0) return emptyTally();
  const spans = gold.flatMap((q) => q.spans);
  let covered = 0;
  for (let t = 0; t < turns; t++) if (spans.some((s) => inSpan(t, s))) covered++;
  return {
    queries: gold.length,
    hits: gold.filter((q) => predicted.some((item) => item.some((t) => q.spans.some((s) => inSpan(t, s))))).length,
    items: predicted.length,
    inside: predicted.filter((item) => item.some((t) => spans.some((s) => inSpan(t, s)))).length,
    turns,
    covered,
  };
}

/** As many items, each citing as many turns, drawn uniformly without replacement (mulberry32; distinct while turns last). */
export function randomItems(like: readonly (readonly number[])[], turns: number, seed: number): number[][] {
  const rng = mulberry32(seed);
  const pool = Array.from({ length: turns }, (_, i) => i);
  let drawn = 0;
  const draw = () => {
    if (drawn === turns) drawn = 0;
    const j = drawn + Math.floor(rng() * (turns - drawn));
    [pool[drawn], pool[j]] = [pool[j]!, pool[drawn]!];
    return pool[drawn++]!;
  };
  return like.map((item) => item.map(draw));
}

export interface Rates {
  queries: number;
  items: number;
  hitRate: number;
  precision: number;
  /** Share of the meetings' turns inside a gold range: what random precision converges to. */
  coverage: number;
}

export const rates = (t: Tally): Rates => ({
  queries: t.queries,
  items: t.items,
  hitRate: t.queries ? t.hits / t.queries : NaN,
  precision: t.items ? t.inside / t.items : NaN,
  coverage: t.turns ? t.covered / t.turns : NaN,
});
