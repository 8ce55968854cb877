// POST /v1/grounded/eval: per-nugget support with span and reason, documented weights, determinism, citation checks, bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecallResponse } from "../../src/contract/memory.ts";
import { GroundedEvalResponse } from "../../src/contract/nuggets.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { CORPUS, ingestCorpus, json, type ErrorEnvelope } from "./support.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ multiTenant: true });
  await ingestCorpus(svc);
});
afterAll(async () => svc.cleanup());

const evaluate = async (body: unknown, token?: string): Promise<GroundedEvalResponse> => {
  const out = await json<GroundedEvalResponse>(
    svc.post("/v1/grounded/eval", body, token ? { authorization: `Bearer ${token}` } : {}),
    200,
  );
  return GroundedEvalResponse.parse(out);
};

const OUTPUT =
  "Ingrid Solberg designed the Varenholm lighthouse. Construction finished in 1887. The bakery bakes bread.";

/** One nugget of each outcome, with both weights. */
const CRAFTED = [
  { text: "Ingrid Solberg designed the Varenholm lighthouse", importance: "vital" }, // verbatim: supported
  { text: "The lighthouse had 14 keepers", importance: "vital" }, // 1 of 3 terms: not supported
  { text: "Construction finished in 1887 after four years of work", importance: "okay" }, // 3 of 7 terms: partial
  { text: "The bakery bakes bread", importance: "okay" }, // verbatim: supported
] as const;

describe("nugget judgements", () => {
  it("marks each nugget supported, partial or not, with the matching span from the output and why", async () => {
    const res = await evaluate({ output: OUTPUT, nuggets: CRAFTED });
    expect(res.nuggets.map((n) => [n.text, n.importance, n.support])).toEqual([
      [CRAFTED[0].text, "vital", "supported"],
      [CRAFTED[1].text, "vital", "not_supported"],
      [CRAFTED[2].text, "okay", "partial"],
      [CRAFTED[3].text, "okay", "supported"],
    ]);
    const [designed, keepers, construction, bakery] = [
      res.nuggets[0]!,
      res.nuggets[1]!,
      res.nuggets[2]!,
      res.nuggets[3]!,
    ];
    expect(designed.matching_span).toBe("Ingrid Solberg designed the Varenholm lighthouse.");
    expect(designed.coverage).toBe(1);
    expect(designed.why).toMatch(/100%/);
    expect(construction.matching_span).toBe("Construction finished in 1887.");
    expect(construction.coverage).toBeCloseTo(3 / 7, 5); // construct, finish, 1887 of construct, finish, 1887, after, four, year, work
    // The reason names what is missing in the nugget's own words, not their stems ("years", not "year").
    expect(construction.why).toMatch(/missing: after, four, years, work$/);
    expect(keepers.coverage).toBeCloseTo(1 / 3, 5);
    expect(keepers.why).toMatch(/14/);
    expect(keepers.why).toMatch(/keepers/);
    expect(bakery.matching_span).toBe("The bakery bakes bread.");
    for (const n of res.nuggets) if (n.matching_span !== null) expect(OUTPUT).toContain(n.matching_span);
  });

  it("has no matching span when nothing in the output relates to the nugget", async () => {
    const res = await evaluate({ output: OUTPUT, nuggets: [{ text: "Tide tables are printed every spring" }] });
    expect(res.nuggets[0]).toMatchObject({
      support: "not_supported",
      coverage: 0,
      matching_span: null,
      importance: "vital",
    });
  });

  it("matches verbatim nuggets on whole words only: '14' is not in '2014', 'art' is not in 'restart'", async () => {
    const res = await evaluate({
      output: "The lighthouse closed in 2014. The restart took a week.",
      nuggets: [{ text: "14" }, { text: "art" }, { text: "2014" }],
    });
    expect(res.nuggets.map((n) => n.support)).toEqual(["not_supported", "not_supported", "supported"]);
    expect(res.nuggets[0]!.coverage).toBe(0);
  });

  it("finds a nugget that straddles two sentences", async () => {
    const res = await evaluate({
      output: "The keeper was Arne Holt. He lit the lamp in 1902.",
      nuggets: [{ text: "Arne Holt lit the lamp in 1902" }],
    });
    expect(res.nuggets[0]!.support).toBe("supported");
    expect(res.nuggets[0]!.matching_span).toBe("The keeper was Arne Holt. He lit the lamp in 1902.");
  });

  it("computes the documented scores: recall (supported 1, partial 0.5), strict, vital-only and weighted (vital 1, okay 0.5)", async () => {
    const res = await evaluate({ output: OUTPUT, nuggets: CRAFTED });
    // supported + 0.5 x partial over 4 nuggets: (1 + 0 + 0.5 + 1) / 4
    expect(res.nugget_recall).toBe(0.625);
    expect(res.strict_recall).toBe(0.5);
    // vital: supported and not -> (1 + 0) / 2
    expect(res.vital_recall).toBe(0.5);
    // (1x1 + 1x0 + 0.5x0.5 + 0.5x1) / (1 + 1 + 0.5 + 0.5) = 1.75 / 3
    expect(res.weighted_score).toBeCloseTo(1.75 / 3, 6);
    expect(res.citations).toEqual([]);
    expect(res.citation_precision).toBeNull();
  });

  it("defaults importance to vital, and vital_recall is 1 without vital nuggets", async () => {
    const okayOnly = await evaluate({
      output: OUTPUT,
      nuggets: [{ text: "The lighthouse had 14 keepers", importance: "okay" }],
    });
    expect(okayOnly.vital_recall).toBe(1);
    expect(okayOnly.weighted_score).toBe(0);
    const defaulted = await evaluate({ output: OUTPUT, nuggets: [{ text: "The bakery bakes bread" }] });
    expect(defaulted.nuggets[0]!.importance).toBe("vital");
    expect([
      defaulted.nugget_recall,
      defaulted.strict_recall,
      defaulted.vital_recall,
      defaulted.weighted_score,
    ]).toEqual([1, 1, 1, 1]);
  });

  it("is deterministic: the same input twice gives deep-equal results", async () => {
    const hit = (
      await json<RecallResponse>(svc.post("/v1/memory/recall", { query: "sourdough starter Lyon", k: 1 }), 200)
    ).hits[0]!;
    const body = {
      output: `${OUTPUT} Marguerite Dubois brought the sourdough starter from Lyon.`,
      nuggets: [...CRAFTED, { text: "Marguerite Dubois brought the starter", importance: "okay" }],
      citations: [{ chunk_hash: hit.chunk_hash, text_span: hit.text_span }],
    };
    const a = await evaluate(body);
    const b = await evaluate(body);
    expect(b).toEqual(a);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});

describe("citation checks", () => {
  it("a citation copied from a real recall hit exists and supports its claim; a fabricated span does not exist", async () => {
    const hit = (
      await json<RecallResponse>(
        svc.post("/v1/memory/recall", { query: "who designed the Varenholm lighthouse", k: 1 }),
        200,
      )
    ).hits[0]!;
    expect(hit.source_path).toBe("history/lighthouse.md");
    const sentence = "The Varenholm lighthouse was designed by Ingrid Solberg.";
    expect(hit.text_span).toContain(sentence);
    const claim = "Ingrid Solberg designed the Varenholm lighthouse.";
    const res = await evaluate({
      output: `${claim} It opened in 1887.`,
      nuggets: [{ text: "Ingrid Solberg designed the lighthouse" }],
      citations: [
        { chunk_hash: hit.chunk_hash, text_span: hit.text_span, claim },
        { chunk_hash: hit.chunk_hash, text_span: sentence }, // a sub-span is still literal evidence; claim defaults to the best output sentence
        { chunk_hash: hit.chunk_hash, text_span: "The Varenholm lighthouse was designed by Gustave Eiffel." },
        { chunk_hash: `sha256:${"ab".repeat(32)}`, text_span: sentence },
      ],
    });
    expect(res.citations.map((c) => [c.exists, c.supports])).toEqual([
      [true, true],
      [true, true],
      [false, false],
      [false, false],
    ]);
    expect(res.citations[0]!.claim).toBe(claim);
    expect(res.citations[1]!.claim).toBe(claim);
    expect(res.citations[0]!.support_ratio).toBe(1);
    expect(res.citation_precision).toBe(0.5);
  });

  it("an existing span that does not back the sentence citing it exists but does not support", async () => {
    const hit = (await json<RecallResponse>(svc.post("/v1/memory/recall", { query: "bakery Mill Street", k: 1 }), 200))
      .hits[0]!;
    expect(CORPUS[hit.source_path]).toContain(hit.text_span);
    const claim = "The lighthouse had 14 keepers over its working life.";
    const res = await evaluate({
      output: claim,
      nuggets: [{ text: "14 keepers" }],
      citations: [{ chunk_hash: hit.chunk_hash, text_span: hit.text_span, claim }],
    });
    expect(res.citations[0]).toMatchObject({ exists: true, supports: false, claim });
    expect(res.citations[0]!.support_ratio).toBeLessThan(0.5);
    expect(res.citation_precision).toBe(0);
  });

  it("checks citations against the caller's workspace only", async () => {
    const hit = (await json<RecallResponse>(svc.post("/v1/memory/recall", { query: "sourdough starter", k: 1 }), 200))
      .hits[0]!;
    const body = {
      output: "Marguerite Dubois brought the sourdough starter from Lyon.",
      nuggets: [{ text: "Marguerite Dubois" }],
      citations: [{ chunk_hash: hit.chunk_hash, text_span: hit.text_span }],
    };
    expect((await evaluate(body)).citations[0]!.exists).toBe(true);
    expect((await evaluate(body, (await svc.issueToken("acme")).token)).citations[0]!.exists).toBe(false);
  });

  it("a forgotten chunk no longer counts as existing evidence", async () => {
    await ingestCorpus(svc, { "tmp/ferry.md": "# Ferry\n\nThe ferry to Varenholm leaves at 7 each morning.\n" });
    const hit = (
      await json<RecallResponse>(svc.post("/v1/memory/recall", { query: "ferry Varenholm morning", k: 1 }), 200)
    ).hits[0]!;
    const body = {
      output: "The ferry to Varenholm leaves at 7 each morning.",
      nuggets: [{ text: "ferry leaves at 7" }],
      citations: [{ chunk_hash: hit.chunk_hash, text_span: "The ferry to Varenholm leaves at 7 each morning." }],
    };
    expect((await evaluate(body)).citations[0]!.exists).toBe(true);
    await json(svc.post("/v1/memory/forget", { source_path: "tmp/ferry.md" }), 200);
    expect((await evaluate(body)).citations[0]!.exists).toBe(false);
  });
});

describe("bad input", () => {
  it.each([
    ["an empty nugget list", { output: OUTPUT, nuggets: [] }],
    ["a missing nugget list", { output: OUTPUT }],
    ["an unknown importance", { output: OUTPUT, nuggets: [{ text: "x", importance: "critical" }] }],
    ["an empty nugget text", { output: OUTPUT, nuggets: [{ text: "  " }] }],
    ["a nugget that is a bare string", { output: OUTPUT, nuggets: ["Ingrid Solberg"] }],
    ["an extra nugget field", { output: OUTPUT, nuggets: [{ text: "x", weight: 3 }] }],
    ["too many nuggets", { output: OUTPUT, nuggets: Array.from({ length: 201 }, (_, i) => ({ text: `fact ${i}` })) }],
    ["an empty output", { output: "", nuggets: [{ text: "x" }] }],
    [
      "a malformed citation hash",
      { output: OUTPUT, nuggets: [{ text: "x" }], citations: [{ chunk_hash: "abc", text_span: "x" }] },
    ],
    [
      "an empty cited span",
      {
        output: OUTPUT,
        nuggets: [{ text: "x" }],
        citations: [{ chunk_hash: `sha256:${"0".repeat(64)}`, text_span: "" }],
      },
    ],
  ])("rejects %s with 400 invalid_request", async (_name, body) => {
    const res = await json<ErrorEnvelope<{ issues: { path: string }[] }>>(svc.post("/v1/grounded/eval", body), 400);
    expect(res.error.code).toBe("invalid_request");
    expect(res.error.details?.issues.length).toBeGreaterThan(0);
  });

  it("rejects malformed JSON with 400 malformed_json", async () => {
    expect(
      (await json<ErrorEnvelope>(svc.post("/v1/grounded/eval", '{"output": "x", "nuggets": ['), 400)).error.code,
    ).toBe("malformed_json");
  });
});
