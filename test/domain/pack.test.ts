// Pack planning: the hard budget (items + summaries), item cap, reading order, summaries (dedup and MMR: test/cognitive).
import { describe, expect, it } from "vitest";
import { planPack, type PackCandidate } from "../../src/domain/retrieval/pack.ts";
import { estimateTokens } from "../../src/domain/text/tokens.ts";
import { prng } from "../helpers/prng.ts";

interface Cand extends PackCandidate {
  id: number;
}

const words =
  "storage index query vector token budget recall chunk source anchor citation replica durability latency cache shard".split(
    " ",
  );

function candidate(id: number, sourcePath: string, start: number, text: string, relevance: number): Cand {
  return { id, sourcePath, start, text, relevance };
}

function randomCandidates(rnd: ReturnType<typeof prng>): Cand[] {
  const n = rnd.int(0, 40);
  return Array.from({ length: n }, (_, id) => {
    const sentences = Array.from({ length: rnd.int(1, 8) }, () => {
      const s = Array.from({ length: rnd.int(1, 30) }, () => rnd.pick(words)).join(" ");
      return s.charAt(0).toUpperCase() + s.slice(1) + ".";
    });
    // Some pathological texts: one very long sentence without spaces.
    const text = rnd.next() < 0.05 ? "x".repeat(rnd.int(1, 900)) : sentences.join(" ");
    return candidate(id, `src/${rnd.int(0, 5)}.md`, rnd.int(0, 10_000), text, rnd.next());
  });
}

describe("planPack", () => {
  it("never exceeds the budget or the item cap, and accounts every token (seeded random property)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = prng(seed);
      const cands = randomCandidates(rnd);
      const budgetTokens = rnd.int(1, 1500);
      const maxItems = rnd.int(1, 15);
      const plan = planPack(cands, { budgetTokens, maxItems, intent: `${rnd.pick(words)} ${rnd.pick(words)}` });
      const itemTokens = plan.items.reduce((s, i) => s + i.tokens, 0);
      const summaryTokens = plan.summaries.reduce((s, x) => s + estimateTokens(x.text), 0);
      expect(plan.usedTokens, `seed ${seed}`).toBeLessThanOrEqual(budgetTokens);
      expect(plan.usedTokens, `seed ${seed}`).toBe(itemTokens + summaryTokens);
      expect(plan.items.length, `seed ${seed}`).toBeLessThanOrEqual(maxItems);
      for (const i of plan.items) expect(i.tokens).toBe(estimateTokens(i.candidate.text));
      // Each chosen source has exactly one summary, a literal slice of one of its chosen items.
      const itemSources = new Set(plan.items.map((i) => i.candidate.sourcePath));
      expect(new Set(plan.summaries.map((s) => s.sourcePath))).toEqual(itemSources);
      expect(plan.summaries).toHaveLength(itemSources.size);
      for (const s of plan.summaries) {
        expect(plan.items.some((i) => i.candidate === s.candidate)).toBe(true);
        expect(s.text).toBe(s.candidate.text.slice(s.span.start, s.span.end));
        expect(s.text.length).toBeGreaterThan(0);
        expect(s.text.length).toBeLessThanOrEqual(200);
      }
      // Every candidate is chosen or counted as dropped, unless the cap stopped the loop.
      const accounted = plan.items.length + plan.dropped.overBudget;
      if (plan.items.length < maxItems) expect(accounted).toBe(cands.length);
      else expect(accounted).toBeLessThanOrEqual(cands.length);
    }
  });

  it("puts sources in order of their best item and items of a source in document order", () => {
    const cands = [
      candidate(1, "b.md", 500, "Beta late paragraph about replication lag.", 0.9),
      candidate(2, "a.md", 100, "Alpha paragraph about caching layers.", 0.7),
      candidate(3, "b.md", 10, "Beta early paragraph about shard moves.", 0.2),
      candidate(4, "a.md", 50, "Alpha opening about eviction policy.", 0.6),
      candidate(5, "c.md", 0, "Gamma lone note about query planning.", 0.8),
    ];
    const plan = planPack(cands, { budgetTokens: 10_000, maxItems: 10, intent: "replication" });
    expect(plan.items.map((i) => i.candidate.id)).toEqual([3, 1, 5, 4, 2]);
    expect(plan.summaries.map((s) => s.sourcePath).sort()).toEqual(["a.md", "b.md", "c.md"]);
  });

  it("summarises a source with the sentence that best matches the intent", () => {
    const text = "Caches speed up reads. Replication copies data to followers for failover. Shards split the keyspace.";
    const plan = planPack([candidate(1, "a.md", 0, text, 0.9)], {
      budgetTokens: 1000,
      maxItems: 5,
      intent: "replication failover",
    });
    expect(plan.summaries[0]?.text).toBe("Replication copies data to followers for failover.");
  });

  it("skips an item whose text plus new summary would overflow, but still fits smaller ones", () => {
    const big = candidate(1, "big.md", 0, "word ".repeat(400).trim() + ".", 0.99);
    const small = candidate(2, "small.md", 0, "Small fact about budgets.", 0.5);
    const plan = planPack([big, small], { budgetTokens: 64, maxItems: 5, intent: "budget" });
    expect(plan.items.map((i) => i.candidate.id)).toEqual([2]);
    expect(plan.dropped.overBudget).toBe(1);
    expect(plan.usedTokens).toBeLessThanOrEqual(64);
  });
});
