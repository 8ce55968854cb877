// The query-side layers, one job each: normalize, budget, identity, feeling, goal, expansion, council.
import { describe, expect, it } from "vitest";
import { ahamkara } from "../../src/cognitive/layers/ahamkara.ts";
import { bhavaMonitor } from "../../src/cognitive/layers/bhava-monitor.ts";
import { indriya } from "../../src/cognitive/layers/indriya.ts";
import { createManas } from "../../src/cognitive/layers/manas.ts";
import { prana, trimToTerms } from "../../src/cognitive/layers/prana.ts";
import { sabha } from "../../src/cognitive/layers/sabha.ts";
import { sankalpa } from "../../src/cognitive/layers/sankalpa.ts";
import { defaultParams } from "../../src/cognitive/params.ts";
import type { WordNeighbours } from "../../src/ports/embedding.ts";
import { context, query } from "./states.ts";

describe("indriya", () => {
  it("removes invisible characters that would split a word, and counts it", () => {
    const ctx = context();
    const q = indriya.perceive!(query("post\u200bgres  replication\u00ad lag"), ctx);
    expect(q.text).toBe("postgres replication lag");
    expect(ctx.counts).toEqual({ queries_normalized: 1, invisible_chars_removed: 2 });
  });
  it("leaves a clean query alone", () => {
    const ctx = context();
    const q0 = query("postgres replication");
    expect(indriya.perceive!(q0, ctx)).toBe(q0);
    expect(ctx.counts).toEqual({});
  });
});

describe("prana", () => {
  it("cuts a query after maxQueryTerms searchable words (stopwords do not count) and sets a deadline", () => {
    expect(trimToTerms("the alpha and beta of gamma delta", 3)).toBe("the alpha and beta of gamma");
    expect(trimToTerms("alpha beta", 3)).toBeNull();
    const ctx = context({ ...defaultParams, prana: { budgetMs: 100, maxQueryTerms: 2 } });
    const before = performance.now();
    const q = prana.perceive!(query("alpha beta gamma delta"), ctx);
    expect(q.text).toBe("alpha beta");
    expect(q.deadline).toBeGreaterThanOrEqual(before + 100);
    expect(ctx.counts).toEqual({ queries_trimmed: 1 });
  });
});

describe("ahamkara", () => {
  it("turns 'my' into the calling actor's name as an extra term", () => {
    const ctx = context();
    const q = ahamkara.perceive!(query("what did my team decide", { actorId: "release-planner" }), ctx);
    expect(q.expansion.map((e) => e.term)).toEqual(["releas", "planner"]);
    expect(ctx.counts).toEqual({ self_references_resolved: 1 });
  });
  it("does nothing without an actor or without a first-person word", () => {
    const ctx = context();
    expect(ahamkara.perceive!(query("what did I decide"), ctx).expansion).toEqual([]);
    expect(ahamkara.perceive!(query("what did the team decide", { actorId: "planner" }), ctx).expansion).toEqual([]);
    expect(ctx.counts).toEqual({});
  });
});

describe("bhava_monitor and sankalpa signals", () => {
  it("bhava_monitor marks urgent and negative queries", () => {
    const ctx = context();
    expect(bhavaMonitor.perceive!(query("URGENT: the checkout is broken"), ctx).signals).toEqual({
      urgent: true,
      negative: true,
    });
    expect(bhavaMonitor.perceive!(query("how do backups work"), ctx).signals).toEqual({});
    expect(ctx.counts).toEqual({ urgent_queries: 1, negative_queries: 1 });
  });
  it("sankalpa marks queries about what is left to do", () => {
    const ctx = context();
    expect(sankalpa.perceive!(query("what are the next steps for the migration"), ctx).signals).toEqual({
      goal: "open_loops",
    });
    expect(sankalpa.perceive!(query("who wrote the migration"), ctx).signals).toEqual({});
    expect(ctx.counts).toEqual({ goal_queries: 1 });
  });
});

describe("manas", () => {
  const lexicon: WordNeighbours = {
    neighbours: (word) =>
      ({
        car: [
          { word: "cars", similarity: 0.9 },
          { word: "vehicle", similarity: 0.8 },
        ],
        fast: [
          { word: "quick", similarity: 0.75 },
          { word: "slow", similarity: 0.5 },
        ],
      })[word] ?? [],
  };
  it("adds each content word's near neighbours as weighted terms, skipping its own forms and weak neighbours", () => {
    const ctx = context();
    const q = createManas(lexicon).perceive!(query("a fast car"), ctx);
    expect(q.expansion).toEqual([
      { term: "quick", weight: defaultParams.manas.weight * 0.75 },
      { term: "vehicl", weight: defaultParams.manas.weight * 0.8 },
    ]);
    expect(ctx.counts).toEqual({ queries_expanded: 1, terms_added: 2 });
  });
  it("leaves a query longer than maxQueryTerms as it is", () => {
    const ctx = context({ ...defaultParams, manas: { ...defaultParams.manas, maxQueryTerms: 2 } });
    const q0 = query("a fast car on the track");
    expect(createManas(lexicon).perceive!(q0, ctx)).toBe(q0);
    expect(ctx.counts).toEqual({});
  });
  it("without a lexicon expands nothing and counts it", () => {
    const ctx = context();
    expect(createManas(null).perceive!(query("a fast car"), ctx).expansion).toEqual([]);
    expect(ctx.counts).toEqual({ no_lexicon: 1 });
  });
});

describe("sabha", () => {
  it("convenes both retrievers for a hybrid query with its dense scale; other modes stay", () => {
    const ctx = context({ ...defaultParams, sabha: { denseScale: 0.5 } });
    expect(sabha.perceive!(query("x"), ctx)).toMatchObject({ mode: "hybrid", denseScale: 0.5 });
    expect(sabha.perceive!(query("x", { requestedMode: "lexical" }), ctx).mode).toBe("lexical");
    expect(ctx.counts).toEqual({ queries_fused: 1 });
  });
});
