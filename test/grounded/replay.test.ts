// Trajectory replay: the audit route returns everything behind an answer, and re-running the recorded request reproduces it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/contract/audit.ts";
import type { GroundedAnswerResponse, TrajectoryStep } from "../../src/contract/grounded.ts";
import { createRuntime } from "../../src/main.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { startTestService, withoutComputeBudget, type TestService } from "../helpers/runtime.ts";
import { audit, CORPUS, ingestCorpus, json, type ErrorEnvelope, ANSWERED_TRAJECTORY } from "./support.ts";

let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
  withoutComputeBudget(svc); // a replay's trajectory must match step by step, whatever the machine's load
  await ingestCorpus(svc);
  // Distractors that share words with the question, so retrieval has real ranking work to reproduce.
  await ingestCorpus(svc, {
    "history/harbour.md":
      "# Harbour\n\nThe harbour wall near the lighthouse was rebuilt twice. Fishermen used the lighthouse as a landmark.\n",
    "travel/varenholm.md":
      "# Varenholm\n\nVarenholm is a small island town reached by ferry. Visitors climb the lighthouse stairs in summer.\n",
  });
});
afterEach(async () => svc.cleanup());

interface Hit {
  chunk_hash: string;
  source_path: string;
  anchor: string;
  score: number;
}

const citationKeys = (r: GroundedAnswerResponse) =>
  r.citations.map((c) => ({ chunk_hash: c.chunk_hash, text_span: c.text_span }));
const hitsOf = (steps: readonly TrajectoryStep[]) =>
  (steps.find((s) => s.name === "retrieve")!.detail as { hits: Hit[] }).hits;

/** The recorded trajectory, checked for shape: contiguous, ordered, all under one id. */
async function trajectory(trajectoryId: string, app: TestService = svc): Promise<AuditEvent[]> {
  const { events, next_cursor } = await audit(app, { trajectory_id: trajectoryId });
  expect(next_cursor).toBeNull();
  expect(events.map((e) => e.type)).toEqual(ANSWERED_TRAJECTORY);
  for (const [i, e] of events.entries()) {
    expect(e.trajectory_id).toBe(trajectoryId);
    if (i > 0) expect(e.seq).toBe(events[i - 1]!.seq + 1); // appended in one go: nothing interleaves
  }
  return events;
}

function recorded(events: AuditEvent[]) {
  const request = (events[0]!.payload as { request: Record<string, unknown> }).request;
  const retrieve = events[1]!.payload as TrajectoryStep;
  const outcome = events.at(-1)!.payload as { outcome: string; response: GroundedAnswerResponse };
  return { request, retrieve, outcome };
}

describe("trajectory replay", () => {
  it("re-running the recorded request on the same data gives the same answer, citations and retrieval hits", async () => {
    const original = await json<GroundedAnswerResponse>(
      svc.post("/v1/grounded/answer", {
        question: "Who designed the Varenholm lighthouse?",
        k: 5,
        filters: { source_path_prefix: "history/" },
      }),
      200,
    );
    expect(original.answer).toBe("Ingrid Solberg");
    const events = await trajectory(original.trajectory_id);
    const { request, retrieve, outcome } = recorded(events);

    // The log holds the full request (defaults applied: the asking time too), every step as returned, and the response.
    expect(request).toEqual({
      question: "Who designed the Varenholm lighthouse?",
      k: 5,
      filters: { source_path_prefix: "history/" },
      asked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    expect(events.slice(1, -1).map((e) => e.payload)).toEqual(original.steps);
    expect(outcome.outcome).toBe("answered");
    // The outcome is the response but its steps, which are the events before it: together, the response as returned.
    expect(outcome.response).not.toHaveProperty("steps");
    expect({ ...outcome.response, steps: events.slice(1, -1).map((e) => e.payload) }).toEqual(original);
    const recordedHits = hitsOf([retrieve]);
    expect(recordedHits.length).toBeGreaterThan(1);
    for (const h of recordedHits) expect(h.source_path.startsWith("history/")).toBe(true);

    const replay = await json<GroundedAnswerResponse>(svc.post("/v1/grounded/answer", request), 200);
    expect(replay.trajectory_id).not.toBe(original.trajectory_id);
    expect(replay.answer).toBe(original.answer);
    expect(replay.answer_type).toBe(original.answer_type);
    expect(replay.confidence).toBe(original.confidence);
    expect(citationKeys(replay)).toEqual(citationKeys(original));
    expect(hitsOf(replay.steps)).toEqual(recordedHits);
    // Every later step's detail too (timings aside).
    expect(replay.steps.map((s) => ({ name: s.name, detail: s.detail }))).toEqual(
      original.steps.map((s) => ({ name: s.name, detail: s.detail })),
    );
  });

  it("replays after a restart: a fresh runtime on the same data directory reproduces the recorded run", async () => {
    const original = await json<GroundedAnswerResponse>(
      svc.post("/v1/grounded/answer", { question: "How many keepers did the lighthouse have?" }),
      200,
    );
    await svc.runtime.close();
    const runtime = await createRuntime(svc.config, { embedder: null, log: () => {} });
    try {
      const restarted: TestService = { ...svc, app: createHttpApp(runtime), runtime };
      const events = await trajectory(original.trajectory_id, restarted);
      const { request, retrieve } = recorded(events);
      const replay = await json<GroundedAnswerResponse>(
        restarted.app.request("/v1/grounded/answer", {
          method: "POST",
          headers: { authorization: `Bearer ${svc.token}`, "content-type": "application/json" },
          body: JSON.stringify(request),
        }),
        200,
      );
      expect(replay.answer).toBe("14");
      expect(replay.answer).toBe(original.answer);
      expect(citationKeys(replay)).toEqual(citationKeys(original));
      expect(hitsOf(replay.steps)).toEqual(hitsOf([retrieve]));
    } finally {
      await runtime.close();
    }
  });

  it("a replay on changed data is visibly different: the recorded hits no longer match", async () => {
    const original = await json<GroundedAnswerResponse>(
      svc.post("/v1/grounded/answer", { question: "Who brought the sourdough starter from Lyon?" }),
      200,
    );
    const { request, retrieve } = recorded(await trajectory(original.trajectory_id));
    await json(
      svc.post("/v1/memory/ingest", {
        source_path: "notes/bakery.md",
        content: `${CORPUS["notes/bakery.md"]}\nThe starter from Lyon is fed twice a day.\n`,
      }),
      200,
    );
    const replay = await json<GroundedAnswerResponse>(svc.post("/v1/grounded/answer", request), 200);
    expect(hitsOf(replay.steps)).not.toEqual(hitsOf([retrieve]));
  });

  it("an unknown trajectory_id is 404 not_found", async () => {
    const res = await json<ErrorEnvelope>(
      svc.app.request("/v1/audit/event_log?trajectory_id=traj_00000000-0000-0000-0000-000000000000", {
        headers: { authorization: `Bearer ${svc.token}` },
      }),
      404,
    );
    expect(res.error.code).toBe("not_found");
  });
});
