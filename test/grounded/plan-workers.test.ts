// Answer and pack plans on a worker thread: the same plans as on the loop (same word knowledge), the same responses
// over HTTP, and the loop free while a plan runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { PackResponse } from "../../src/contract/memory.ts";
import type { EvidenceChunk } from "../../src/domain/answering/answer.ts";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { portableNameReader, readsAsName } from "../../src/nlp/compromise-names.ts";
import { portableTagger, posTags } from "../../src/nlp/wink-tagger.ts";
import type { Embedder, WordSimilarity } from "../../src/ports/embedding.ts";
import { PlanPool } from "../../src/services/planning/plan-pool.ts";
import { localPlanner } from "../../src/services/planning/planner.ts";
import { editionText } from "../helpers/documents.ts";
import { startTestService, withoutComputeBudget, type TestService } from "../helpers/runtime.ts";
import { CORPUS, FACTOIDS, ingestCorpus, json, manualClock } from "./support.ts";

let glove: Embedder & WordSimilarity;
let pool: PlanPool;

beforeAll(async () => {
  glove = (await loadGloveEmbedder()) as Embedder & WordSimilarity;
  pool = new PlanPool(1, { words: glove.portable!, tagger: portableTagger, names: portableNameReader });
});
afterAll(async () => pool.close());

const evidence: EvidenceChunk[] = Object.values(CORPUS).map((text, i) => ({ key: i + 1, text, score: 0.9 - i * 0.1 }));

describe("plans on a worker thread", { timeout: 60_000 }, () => {
  it("equal the loop's, with the same word similarity and tagger", async () => {
    const local = localPlanner({ similar: (a, b) => glove.similarity(a, b), tag: posTags, readsAsName });
    for (const { question } of FACTOIDS)
      expect(await pool.answer(question, evidence, 8)).toEqual(await local.answer(question, evidence, 8));
    const candidates = evidence.map((e, i) => ({
      id: e.key,
      sourcePath: `notes/${i % 2}.md`,
      start: i * 100,
      text: e.text,
      relevance: e.score,
    }));
    const opts = { budgetTokens: 120, maxItems: 3, intent: FACTOIDS[0]!.question };
    const threaded = await pool.pack(candidates, opts);
    expect(threaded).toEqual(await local.pack(candidates, opts));
    // The plan hands back the caller's own candidate objects, not copies.
    for (const item of threaded.items) expect(candidates).toContain(item.candidate);
    for (const s of threaded.summaries) expect(candidates).toContain(s.candidate);
    expect(threaded.items.length).toBeGreaterThan(0);
  });

  it("leave the loop free while a plan runs", async () => {
    const big = Array.from({ length: 40 }, (_, i) => ({ key: i, text: editionText(`e${i}`, 3), score: 0.5 }));
    const question = "What did the first edition change?";
    const ticks = async (plan: () => Promise<unknown>) => {
      let n = 0;
      let done = false;
      const spin = () => !done && (n++, setImmediate(spin));
      setImmediate(spin);
      await plan();
      done = true;
      return n;
    };
    await pool.answer(question, big, 8); // the thread has started
    const local = localPlanner({ tag: posTags });
    expect(await ticks(() => local.answer(question, big, 8))).toBe(0);
    // Chunks the thread has not seen (its tagger keeps recent sentences' tags): a plan cached there could come back
    // before the loop's first turn, however free the loop is.
    const fresh = Array.from({ length: 120 }, (_, i) => ({ key: i, text: editionText(`f${i}`, 3), score: 0.5 }));
    expect(await ticks(() => pool.answer(question, fresh, 8))).toBeGreaterThan(0);
  });

  it("give the same grounded answers and packs over HTTP as plans on the loop", async () => {
    const open = (threads: string) =>
      startTestService({ embedder: glove, clock: manualClock(), env: { SMRITI_PLAN_WORKERS: threads } });
    const services: TestService[] = await Promise.all([open("1"), open("0")]);
    services.forEach(withoutComputeBudget);
    try {
      await Promise.all(services.map((svc) => ingestCorpus(svc)));
      for (const { question } of FACTOIDS) {
        const [a, b] = await Promise.all(
          services.map((svc) => json<GroundedAnswerResponse>(svc.post("/v1/grounded/answer", { question }), 200)),
        );
        const strip = ({ trajectory_id: _t, steps, ...rest }: GroundedAnswerResponse) => ({
          ...rest,
          steps: steps.map(({ ms: _ms, ...s }) => s),
        });
        expect(strip(a!)).toEqual(strip(b!));
      }
      const packs = await Promise.all(
        services.map((svc) =>
          json<PackResponse>(svc.post("/v1/memory/pack", { intent: FACTOIDS[1]!.question, budget_tokens: 200 }), 200),
        ),
      );
      expect(packs[0]).toEqual(packs[1]);
      expect(packs[0]!.items.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(services.map((svc) => svc.cleanup()));
    }
  });
});
