// The tuner on outcome feedback: callers' reports become replayable cases, and a parameter change is kept only when the
// citations they used rank higher; decisions and the tuned parameters are recorded, and the replays change nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { latestTuned, RECORD_KINDS, tunerDecisions } from "../../src/cognitive/records.ts";
import { caseScore, feedbackCases, tuneFromFeedback } from "../../src/services/cognitive/feedback-tuning.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { defaultCognitiveConfig } from "../../src/cognitive/params.ts";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { createAutoTuner } from "../../src/services/jobs/auto-tune.ts";

const open: TestService[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.cleanup();
});

const durable = "The write-ahead log keeps committed transactions durable after a crash of the database server.";
const QUERIES = [
  "write-ahead log crash durable",
  "durable transactions after a crash",
  "what keeps committed transactions durable",
  "database server crash write-ahead log",
];

/** a.md and its near-duplicate b.md (which viveka demotes), and c.md; callers keep using b.md. */
async function serviceWithFeedback(): Promise<{ s: TestService; used: string }> {
  const s = await startTestService();
  open.push(s);
  await s.post("/v1/memory/ingest", { source_path: "a.md", content: `# A\n\n${durable}\n` });
  await s.post("/v1/memory/ingest", {
    source_path: "b.md",
    content: `# B\n\n${durable.replace("a crash", "any crash")}\n`,
  });
  await s.post("/v1/memory/ingest", {
    source_path: "c.md",
    content: "# C\n\nCrash recovery replays the write-ahead log from the last checkpoint of the database.\n",
  });
  const used = (await s.runtime.store.documents.documentChunks(s.workspaceId, "b.md"))[0]!.chunkHash;
  for (const query of QUERIES)
    expect((await s.post("/v1/memory/feedback", { chunk_hashes: [used], outcome: "used", query })).status).toBe(200);
  return { s, used };
}

describe("feedback cases", () => {
  it("come from reports with a query or an answer's trajectory, merged per query; reports with neither are skipped", async () => {
    const { s, used } = await serviceWithFeedback();
    const answer = (await (
      await s.post("/v1/grounded/answer", {
        question: "What keeps committed transactions durable?",
        min_confidence: 0,
        asked_at: "2026-03-02T09:00:00+01:00",
      })
    ).json()) as { trajectory_id: string; citations: { chunk_hash: string }[] };
    const other = answer.citations[0]!.chunk_hash;
    await s.post("/v1/memory/feedback", {
      chunk_hashes: [other],
      outcome: "unhelpful",
      trajectory_id: answer.trajectory_id,
    });
    await s.post("/v1/memory/feedback", { chunk_hashes: [used], outcome: "used" });
    await s.post("/v1/memory/feedback", { chunk_hashes: [other], outcome: "unhelpful", query: QUERIES[0] });
    const cases = await feedbackCases(s.runtime.store.audit, [s.workspaceId]);
    expect(cases.map((c) => c.query)).toEqual([...QUERIES, "What keeps committed transactions durable?"].sort());
    const first = cases.find((c) => c.query === QUERIES[0])!;
    expect([...first.used]).toEqual([used]);
    expect([...first.unhelpful]).toEqual([other]);
    expect([...cases.find((c) => c.query.startsWith("What keeps"))!.unhelpful]).toEqual([other]);
    // A replay asks when the answer was asked: its trajectory recorded the time.
    expect(cases.find((c) => c.query.startsWith("What keeps"))!.askedAt).toBe("2026-03-02T09:00:00+01:00");
    expect(await feedbackCases(s.runtime.store.audit, ["another-workspace"])).toEqual([]);
  });

  it("score the reciprocal rank of used citations minus that of unhelpful ones", () => {
    const c = { workspaceId: "w", query: "q", askedAt: "", used: new Set(["x", "y"]), unhelpful: new Set(["z"]) };
    expect(caseScore(["x", "z", "y"], c)).toBeCloseTo((1 + 1 / 3) / 2 - 1 / 2, 9);
    expect(caseScore([], c)).toBe(0);
    expect(caseScore(["z"], { ...c, unhelpful: new Set() })).toBe(0);
  });

  it("the request's query is bounded like a recall query", async () => {
    const { s, used } = await serviceWithFeedback();
    const res = await s.post("/v1/memory/feedback", { chunk_hashes: [used], outcome: "used", query: "x".repeat(5000) });
    expect(res.status).toBe(400);
  });
});

describe("tuneFromFeedback", () => {
  it("keeps the change that ranks the used citation higher, records it, and replays without side effects", async () => {
    const { s, used } = await serviceWithFeedback();
    const rt = s.runtime;
    const rank = async () =>
      (
        await rt.memory.recall(s.workspaceId, { query: QUERIES[0]!, k: 10 }, { dry: true, layers: { karma: false } })
      ).hits
        .map((h) => h.chunk_hash)
        .indexOf(used);
    const before = await rank();
    const counters = JSON.stringify(await rt.cognitive.pipeline.counters.totals());
    const config = rt.cognitive.pipeline.current;
    const r = await tuneFromFeedback(
      { store: rt.store, memory: rt.memory, pipeline: rt.cognitive.pipeline, now: () => 1000 },
      await feedbackCases(rt.store.audit, [s.workspaceId]),
      { runId: "feedback-test" },
    );

    const lighter = r.decisions.find(
      (d) => d.layer === "viveka" && d.parameter === "duplicatePenalty" && d.after === 0.5,
    )!;
    expect(lighter.kept).toBe(true);
    expect(lighter.held_in_after).toBeGreaterThan(lighter.held_in_before);
    expect(r.decisions.find((d) => d.layer === "viveka" && d.after === 3)?.kept).toBe(false);
    expect(r.final.heldIn).toBeGreaterThan(r.baseline.heldIn);
    expect((await tunerDecisions(rt.store.cognitive)).filter((d) => d.run_id === "feedback-test")).toHaveLength(
      r.decisions.length,
    );
    expect((await latestTuned(rt.store.cognitive))?.params.viveka.duplicatePenalty).toBe(0.5);
    // The live pipeline is left as it was; a runtime started now would use the tuned value.
    expect(rt.cognitive.pipeline.current).toEqual(config);
    expect(JSON.stringify(await rt.cognitive.pipeline.counters.totals())).toBe(counters);
    rt.cognitive.pipeline.configure(r.config);
    expect(await rank()).toBeLessThan(before);
  });
});

describe("the automatic tuner", () => {
  const tunerOf = async (s: TestService, env: NodeJS.ProcessEnv = {}) =>
    createAutoTuner({
      store: s.runtime.store,
      retriever: s.runtime.retriever,
      clock: systemClock,
      lexicon: null,
      live: s.runtime.cognitive.pipeline,
      env,
      log: () => {},
    });
  const eventCount = async (s: TestService) =>
    (await s.runtime.store.audit.listEvents(s.workspaceId, { limit: 10_000 })).length;

  it("tunes on feedback that arrived since its last run, on a shadow pipeline, and the live one takes the result", async () => {
    const { s, used } = await serviceWithFeedback();
    const live = s.runtime.cognitive.pipeline;
    const events = await eventCount(s);
    const impressions = JSON.stringify(await s.runtime.store.cognitive.listImpressions());
    const tuner = await tunerOf(s);
    const r = await tuner.runOnce();
    expect(
      r?.decisions.find((d) => d.layer === "viveka" && d.parameter === "duplicatePenalty" && d.after === 0.5)?.kept,
    ).toBe(true);
    expect((await latestTuned(s.runtime.store.cognitive))?.run_id).toMatch(/^auto-/);
    expect(live.current.params.viveka.duplicatePenalty).toBe(0.5); // as a restart would have it
    expect(await eventCount(s)).toBe(events); // the replays wrote nothing
    expect(JSON.stringify(await s.runtime.store.cognitive.listImpressions())).toBe(impressions);
    // Nothing new: no run, no record.
    const records = (await tunerDecisions(s.runtime.store.cognitive)).length;
    expect(await tuner.runOnce()).toBeNull();
    expect(await tunerDecisions(s.runtime.store.cognitive)).toHaveLength(records);
    // A new report is reason to look again, starting from the tuned parameters.
    expect(
      (await s.post("/v1/memory/feedback", { chunk_hashes: [used], outcome: "used", query: QUERIES[1] })).status,
    ).toBe(200);
    const again = await tuner.runOnce();
    expect(
      again?.decisions.filter((d) => d.layer === "viveka" && d.parameter === "duplicatePenalty").map((d) => d.before),
    ).toContain(0.5);
  });

  it("waits for enough feedback", async () => {
    const s = await startTestService();
    open.push(s);
    await s.post("/v1/memory/ingest", { source_path: "a.md", content: `# A\n\n${durable}\n` });
    const hash = (await s.runtime.store.documents.documentChunks(s.workspaceId, "a.md"))[0]!.chunkHash;
    await s.post("/v1/memory/feedback", { chunk_hashes: [hash], outcome: "used", query: QUERIES[0] });
    expect(await (await tunerOf(s)).runOnce()).toBeNull(); // one query: too few to tune on
  });

  it("checks on a timer, logs what it kept, and a stop during a run records nothing", async () => {
    const { s } = await serviceWithFeedback();
    const logged: string[] = [];
    const tuner = await createAutoTuner({
      store: s.runtime.store,
      retriever: s.runtime.retriever,
      clock: systemClock,
      lexicon: null,
      live: s.runtime.cognitive.pipeline,
      env: {},
      log: (m) => logged.push(m),
    });
    tuner.start(0.001); // 60 ms
    for (let i = 0; i < 200 && !logged.some((m) => m.startsWith("auto-tune on")); i++)
      await new Promise((r) => setTimeout(r, 25));
    await tuner.stop();
    expect(logged.find((m) => m.startsWith("auto-tune on"))).toMatch(/viveka\.duplicatePenalty 1\.5 -> 0\.5/);

    const { s: t } = await serviceWithFeedback();
    const stopped = await tunerOf(t);
    const run = stopped.runOnce();
    await stopped.stop();
    await expect(run).rejects.toThrow();
    expect(await latestTuned(t.runtime.store.cognitive)).toBeNull();
    expect(t.runtime.cognitive.pipeline.current).toEqual(defaultCognitiveConfig);
  });

  it("runs only in the serving runtime, and not when tuned parameters are ignored or given", async () => {
    const dir = mkdtempSync(join(tmpdir(), "smriti-autotune-"));
    try {
      const tunes = async (
        env: NodeJS.ProcessEnv,
        opts: { autoTune?: boolean; cognitive?: typeof defaultCognitiveConfig } = { autoTune: true },
      ) => {
        const rt = await createRuntime(loadConfig(env, { data: dir }), {
          embedder: null,
          log: () => {},
          background: true,
          ...opts,
        });
        const on = rt.autoTuner !== null;
        await rt.close();
        return on;
      };
      expect(await tunes({})).toBe(true);
      expect(await tunes({}, {})).toBe(false); // background alone (smriti mcp, the bench) does not tune
      expect(await tunes({ SMRITI_AUTOTUNE_MINUTES: "0" })).toBe(false);
      expect(await tunes({ SMRITI_TUNED: "0" })).toBe(false);
      expect(await tunes({}, { autoTune: true, cognitive: defaultCognitiveConfig })).toBe(false);
      expect(() => loadConfig({ SMRITI_AUTOTUNE_MINUTES: "soon" }, { data: dir })).toThrow(/SMRITI_AUTOTUNE_MINUTES/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a worker that follows the tuning takes up the parameters another process recorded; one that does not keeps its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "smriti-follow-tuning-"));
    const open = (followTuningMs?: number) =>
      createRuntime(loadConfig({}, { data: dir }), { embedder: null, log: () => {}, background: true, followTuningMs });
    const [follower, loner] = [await open(30), await open()];
    try {
      expect(follower.cognitive.pipeline.current.enabled.chitta).toBe(false);
      // What the lead's tuner records at the end of a run (chitta is off by default).
      const tuned = {
        run_id: "run_elsewhere",
        params: defaultCognitiveConfig.params,
        enabled: { ...defaultCognitiveConfig.enabled, chitta: true },
      };
      await loner.store.cognitive.appendCognitiveRecords([
        { kind: RECORD_KINDS.tuned, workspaceId: null, at: Date.now(), payload: tuned },
      ]);
      for (const until = Date.now() + 5_000; !follower.cognitive.pipeline.current.enabled.chitta && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 10));
      expect(follower.cognitive.pipeline.current.enabled.chitta).toBe(true);
      expect(loner.cognitive.pipeline.current.enabled.chitta).toBe(false);
    } finally {
      await Promise.all([follower.close(), loner.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
