// The pure parts of the knowledge lifecycle: sentence roles, counterpoint detection, artefacts and the maturity scale.
import { describe, expect, it } from "vitest";
import { counterReason } from "../../src/domain/knowledge/counterpoint.ts";
import { knowledgeMaturity } from "../../src/domain/knowledge/maturity.ts";
import { practise, renderArtefact, type Reflection } from "../../src/domain/knowledge/practice.ts";
import { reflect } from "../../src/domain/knowledge/reflection.ts";

const roles = (text: string) => reflect(text).map((s) => [s.role, text.slice(s.start, s.end)]);

describe("reflect", () => {
  it("gives each sentence one role by precedence question > counterpoint > principle > claim, skipping headings and fragments", () => {
    const text =
      "# Caching\n\nCaches cut read latency by an order of magnitude. Should we cache writes? But caches go stale under heavy writes.\n- Avoid caching user sessions.\nShort note.\nNever trust a cache you cannot invalidate.";
    expect(roles(text)).toEqual([
      ["claim", "Caches cut read latency by an order of magnitude."],
      ["question", "Should we cache writes?"],
      ["counterpoint", "But caches go stale under heavy writes."],
      ["principle", "- Avoid caching user sessions."],
      ["principle", "Never trust a cache you cannot invalidate."],
    ]);
  });

  it("always finds a claim: the first statement, or the first heading of a capture of headings only", () => {
    expect(roles("Always test. Prefer small PRs.")).toEqual([
      ["claim", "Always test."],
      ["principle", "Always test."],
      ["principle", "Prefer small PRs."],
    ]);
    expect(roles("# Only a heading")).toEqual([["claim", "# Only a heading"]]);
    expect(roles("Why? How?").map(([r]) => r)).toEqual(["question", "question"]);
  });
});

describe("counterReason", () => {
  const claim = "Daily deploys cut incident recovery to under an hour.";
  it("needs the same subject, then finds opposite polarity, another figure, or a contrast", () => {
    expect(counterReason(claim, "Daily deploys did not cut incident recovery to under an hour.")).toBe("negation");
    expect(
      counterReason("Recovery takes 45 minutes with daily deploys.", "With daily deploys recovery takes 90 minutes."),
    ).toBe("different_number");
    expect(
      counterReason(claim, "Daily deploys cut incident recovery to under an hour, but only for stateless services."),
    ).toBe("contrast");
    expect(counterReason(claim, "Daily deploys cut incident recovery to under an hour.")).toBeNull();
    expect(counterReason(claim, "Bananas are not blue.")).toBeNull();
  });
});

describe("practise", () => {
  const r: Reflection<string> = {
    title: "Caching",
    claims: [
      { text: "Caches cut latency.", ref: "c1" },
      { text: "Stale reads confuse users.", ref: "c2" },
    ],
    questions: [
      { text: "Cache writes?", ref: "q1" },
      { text: "Which TTL?", ref: null },
    ],
    counterpoints: [{ text: "But caches go stale.", ref: "x1" }],
    principles: [{ text: "Review the cache hit rate weekly.", ref: "p1" }],
  };

  it("builds each type from the reflection's lists, the lead being the first principle", () => {
    expect(practise("rule", r).items.map((i) => [i.kind, i.ref])).toEqual([
      ["statement", "p1"],
      ["caveat", "x1"],
    ]);
    expect(practise("principle", r).items.map((i) => i.kind)).toEqual(["statement", "support", "support", "caveat"]);
    expect(practise("checklist", r).items.map((i) => i.ref)).toEqual(["p1", "c1", "c2"]);
    expect(practise("task", r).items.map((i) => [i.kind, i.ref])).toEqual([
      ["step", "p1"],
      ["resolve", "q1"],
      ["resolve", null],
    ]);
    expect(practise("project", r).title).toBe("Project: Caching");
    const habit = practise("habit", r);
    expect(habit.cadence).toBe("weekly");
    expect(habit.items.map((i) => i.kind)).toEqual(["cue", "step"]);
    expect(practise("habit", { ...r, principles: [] }).cadence).toBe("daily");
  });

  it("renders a note listing every item", () => {
    const note = renderArtefact(practise("checklist", r), "Caching (shravan_1)");
    expect(note.split("\n").slice(0, 4)).toEqual([
      "# Checklist: Caching",
      "",
      "- Type: checklist",
      "- From: Caching (shravan_1)",
    ]);
    expect(note).toContain("- [ ] Stale reads confuse users.");
  });
});

describe("knowledgeMaturity", () => {
  it("gives each stage its third of [0, 1], ordered by source quality within it", () => {
    expect(knowledgeMaturity("shravan", 0, 0)).toBe(0);
    expect(knowledgeMaturity("shravan", 1, 1)).toBeCloseTo(1 / 3, 4);
    expect(knowledgeMaturity("manan", 0.5, 0.5)).toBe(0.5);
    expect(knowledgeMaturity("nididhyasan", 1, 1)).toBe(1);
    expect(knowledgeMaturity("nididhyasan", 0, 0)).toBeGreaterThan(knowledgeMaturity("manan", 1, 0.9));
  });
});
