// POST /v1/grounded/answer/stream over a real socket: event order and ids, resume by Last-Event-ID, bad input, vanishing clients.
import { SSEStreamingApi } from "hono/streaming";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { GroundedAnswerResponse, TrajectoryStep } from "../../src/contract/grounded.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import {
  audit,
  auditQuery,
  expectGroundedCitation,
  FACTOIDS,
  ingestCorpus,
  json,
  parseSse,
  readEvents,
  slowEmbedder,
  UNRELATED,
  type ErrorEnvelope,
  type SseEvent,
} from "./support.ts";

const embedder = slowEmbedder();
let svc: TestService;
let server: RunningServer;

beforeAll(async () => {
  svc = await startTestService({ embedder });
  await ingestCorpus(svc);
  server = await listen(svc.app, "127.0.0.1", 0);
});
afterAll(async () => {
  await server.close();
  await svc.cleanup();
});
afterEach(() => {
  embedder.delayMs = 0;
  vi.restoreAllMocks();
});

function stream(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(new URL("/v1/grounded/answer/stream", server.url), {
    method: "POST",
    headers: { authorization: `Bearer ${svc.token}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

async function events(res: Response): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  return parseSse(await res.text());
}

const resume = (lastEventId: string) => stream({}, { "last-event-id": lastEventId }).then(events);

interface RunComplete {
  status: "answered" | "error";
  response?: GroundedAnswerResponse;
  error?: { code: string; details: { trajectory_id: string } };
}

/** run_started, then steps, then run_complete; every event has a distinct id. Returns the run's trajectory id. */
function expectRunShape(evs: SseEvent[], stepNames: TrajectoryStep["name"][]): string {
  expect(evs.map((e) => e.event)).toEqual(["run_started", ...stepNames.map(() => "step"), "run_complete"]);
  expect(evs.slice(1, -1).map((e) => (e.data as TrajectoryStep).name)).toEqual(stepNames);
  for (const e of evs) expect(e.id, JSON.stringify(e)).toMatch(/\S/);
  expect(new Set(evs.map((e) => e.id)).size).toBe(evs.length);
  for (const e of evs.slice(1, -1)) expect((e.data as TrajectoryStep).ms).toBeGreaterThanOrEqual(0);
  const trajectoryId = (evs[0]!.data as { trajectory_id: string }).trajectory_id;
  expect(trajectoryId).toMatch(/^traj_/);
  return trajectoryId;
}

describe("the answer stream", () => {
  it("sends run_started, a step per stage, run_complete with the same answer as the JSON route", async () => {
    const question = FACTOIDS[2]!.question;
    const evs = await events(await stream({ question }));
    const trajectoryId = expectRunShape(evs, ["retrieve", "score_candidates", "select", "answer"]);
    const done = evs.at(-1)!.data as RunComplete;
    expect(done.status).toBe("answered");
    const streamed = done.response!;
    expect(streamed.trajectory_id).toBe(trajectoryId);
    // The steps inside the final response are the ones streamed.
    expect(streamed.steps).toEqual(evs.slice(1, -1).map((e) => e.data));
    for (const c of streamed.citations) expectGroundedCitation(c);

    const plain = await json<GroundedAnswerResponse>(svc.post("/v1/grounded/answer", { question }), 200);
    expect(streamed.answer).toBe("14");
    expect(streamed.answer).toBe(plain.answer);
    expect(streamed.answer_type).toBe(plain.answer_type);
    expect(streamed.confidence).toBe(plain.confidence);
    expect(streamed.citations.map((c) => [c.chunk_hash, c.text_span])).toEqual(
      plain.citations.map((c) => [c.chunk_hash, c.text_span]),
    );

    // The streamed run is the recorded one.
    const { events: log } = await audit(svc, { trajectory_id: trajectoryId });
    expect(log.at(-1)!.payload).toMatchObject({ outcome: "answered", response: { answer: "14" } });
  });

  it("resuming with Last-Event-ID from any point gets exactly the remaining events, same ids and data", async () => {
    const full = await events(await stream({ question: FACTOIDS[0]!.question }));
    expectRunShape(full, ["retrieve", "score_candidates", "select", "answer"]);
    for (let i = 0; i < full.length; i++) {
      const rest = await resume(full[i]!.id!);
      // toEqual on parsed data: the replay is rebuilt from the log, so only key order may differ.
      expect(rest, `resuming after event ${i}`).toEqual(full.slice(i + 1));
    }
  });

  it("streams an abstention as run_complete with status error and insufficient_evidence, also resumable", async () => {
    const evs = await events(await stream({ question: UNRELATED }));
    const trajectoryId = expectRunShape(evs, ["retrieve", "score_candidates", "select", "abstain"]);
    const done = evs.at(-1)!.data as RunComplete;
    expect(done.status).toBe("error");
    expect(done.error).toMatchObject({ code: "insufficient_evidence", details: { trajectory_id: trajectoryId } });
    expect(await resume(evs[1]!.id!)).toEqual(evs.slice(2));
  });

  it("answers bad input with a plain JSON 4xx before any stream opens", async () => {
    const check = async (res: Response, status: number, code: string) => {
      expect(res.headers.get("content-type")).not.toMatch(/event-stream/);
      expect((await json<ErrorEnvelope>(res, status)).error.code).toBe(code);
    };
    await check(await stream("{not json"), 400, "malformed_json");
    await check(await stream({ question: "" }), 400, "invalid_request");
    await check(await stream({ question: "Who?", k: 0 }), 400, "invalid_request");
    await check(await stream({ question: "Who?" }, { "content-type": "text/plain" }), 415, "unsupported_media_type");
    await check(await stream({ question: "Who?" }, { authorization: "Bearer smr_nope" }), 401, "unauthorized");
  });

  it("a well-formed Last-Event-ID naming an unknown trajectory is 404; a garbled one is 400", async () => {
    const unknown = await stream({}, { "last-event-id": "traj_00000000-0000-0000-0000-000000000000/2" });
    expect((await json<ErrorEnvelope>(unknown, 404)).error.code).toBe("not_found");
    const garbled = await stream({}, { "last-event-id": "not-an-id" });
    expect((await json<ErrorEnvelope>(garbled, 400)).error.code).toBe("invalid_request");
    // Of a finished run: its last id means nothing is missing; an id it never sent is 404.
    const full = await events(await stream({ question: FACTOIDS[0]!.question }));
    const last = full.at(-1)!.id!;
    expect(await resume(last)).toEqual([]);
    const past = await stream({}, { "last-event-id": last.replace(/\/\d+$/, (m) => `/${Number(m.slice(1)) + 1}`) });
    expect((await json<ErrorEnvelope>(past, 404)).error.code).toBe("not_found");
  });

  it("a client aborting mid-run leaves the server healthy, the run finishes and is recorded, the stream closes", async () => {
    const closed = vi.spyOn(SSEStreamingApi.prototype, "close");
    embedder.delayMs = 400; // the retrieve step waits on the query embedding, so the client can leave mid-run
    const abort = new AbortController();
    const res = await stream({ question: "Who designed the Varenholm lighthouse, and when?" }, {}, abort.signal);
    expect(res.status).toBe(200);
    const { events: first } = await readEvents(res, 1);
    expect(first[0]!.event).toBe("run_started");
    const trajectoryId = (first[0]!.data as { trajectory_id: string }).trajectory_id;
    expect(closed).not.toHaveBeenCalled(); // the run is still going: retrieve is waiting on the embedder
    abort.abort();

    // The server-side stream callback ran to its end (no writer stuck on a vanished reader), while the run goes on.
    await vi.waitFor(() => expect(closed).toHaveBeenCalled(), { timeout: 10_000, interval: 25 });
    embedder.delayMs = 0;

    await vi.waitFor(async () => expect((await auditQuery(svc, { trajectory_id: trajectoryId })).status).toBe(200), {
      timeout: 10_000,
      interval: 25,
    });
    const { events: log } = await audit(svc, { trajectory_id: trajectoryId });
    expect(log.map((e) => e.type)[0]).toBe("grounded.request");
    expect(log.at(-1)!.type).toBe("grounded.outcome");

    // Healthy: the next request on a new connection streams a whole run.
    expectRunShape(await events(await stream({ question: FACTOIDS[1]!.question })), [
      "retrieve",
      "score_candidates",
      "select",
      "answer",
    ]);
    // And the abandoned run can still be collected later by id.
    const rest = await resume(`${first[0]!.id}`);
    expect(rest.at(-1)!.event).toBe("run_complete");
  });
});

describe("resuming a run that is still going", () => {
  it("a client that reconnects mid-run gets the rest live, before the run reaches the log", async () => {
    embedder.delayMs = 400;
    const abort = new AbortController();
    // A question not asked before, so its embedding is not cached and the run really waits.
    const res = await stream({ question: "Who was the designer of the Varenholm lighthouse?" }, {}, abort.signal);
    const { events: first } = await readEvents(res, 1);
    const trajectoryId = (first[0]!.data as { trajectory_id: string }).trajectory_id;
    abort.abort();
    // Not in the audit log yet: the run is still waiting on the embedder.
    expect((await auditQuery(svc, { trajectory_id: trajectoryId })).status).toBe(404);
    const rest = await resume(first[0]!.id!);
    embedder.delayMs = 0;
    expect(rest.map((e) => e.event)).toEqual(["step", "step", "step", "step", "run_complete"]);
    expect(rest.map((e) => e.id)).toEqual([1, 2, 3, 4, 5].map((n) => `${trajectoryId}/${n}`));
    expect((rest.at(-1)!.data as { response: { answer: string } }).response.answer).toBe(FACTOIDS[0]!.answer);
  });
});

describe("resuming a run the service stopped in the middle of", () => {
  it("gets the logged rest and then an error end (the run cannot finish any more), logged once for later resumes", async () => {
    // A run logged by a process that stopped after its first step: the log holds run_started and one step, no end.
    const trajectoryId = "traj_00000000-0000-4000-8000-000000000001";
    await svc.runtime.store.streams.appendStream(svc.workspaceId, trajectoryId, [
      { type: "run_started", at: Date.now(), data: { trajectory_id: trajectoryId } },
      { type: "step", at: Date.now(), data: { name: "retrieve", ms: 1, detail: {} } },
    ]);
    const rest = await resume(`${trajectoryId}/0`);
    expect(rest.map((e) => [e.id, e.event])).toEqual([
      [`${trajectoryId}/1`, "step"],
      [`${trajectoryId}/2`, "run_complete"],
    ]);
    expect(rest.at(-1)!.data).toMatchObject({ status: "error", error: { code: "internal_error" } });
    expect(await resume(`${trajectoryId}/1`)).toEqual(rest.slice(1));
    expect(
      (await svc.runtime.store.streams.readStream(svc.workspaceId, trajectoryId, 0, 10)).filter(
        (e) => e.type === "run_complete",
      ),
    ).toHaveLength(1);
  });
});

describe("the answer stream across workspaces", () => {
  let mt: TestService;
  let mtServer: RunningServer;
  beforeAll(async () => {
    mt = await startTestService({ multiTenant: true });
    await ingestCorpus(mt);
    mtServer = await listen(mt.app, "127.0.0.1", 0);
  });
  afterAll(async () => {
    await mtServer.close();
    await mt.cleanup();
  });

  it("another workspace cannot resume (or even confirm) a run: 404", async () => {
    const post = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(new URL("/v1/grounded/answer/stream", mtServer.url), {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const evs = await events(await post(mt.token, { question: FACTOIDS[0]!.question }));
    const other = (await mt.issueToken("acme")).token;
    expect((await json<ErrorEnvelope>(post(other, {}, { "last-event-id": evs[1]!.id! }), 404)).error.code).toBe(
      "not_found",
    );
    // The owner still can.
    expect(parseSse(await (await post(mt.token, {}, { "last-event-id": evs[1]!.id! })).text())).toEqual(evs.slice(2));
  });
});
