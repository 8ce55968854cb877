// One chat turn with the embedded extractive provider through HTTP: the exact event sequence, every payload against its
// schema, tiers and persistence as the spec's table says, and the log the stream was read from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionEvents, type SessionEventType } from "../../src/contract/events.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { specRow } from "../helpers/spec-events.ts";
import { CLOSING, collapseTokens, createSession, dataOf, logOf, OPENING, send, TOOL_RUN, types } from "./support.ts";

const NOTE =
  "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n\nTODO: migrate the reports job.\n";

describe("a chat turn with the extractive provider", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    expect((await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  it("streams the spec's events in order, each valid, with the grounded answer and its citations", async () => {
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL?");
    expect(collapseTokens(types(events))).toEqual([
      "session",
      ...OPENING,
      "thinking",
      ...TOOL_RUN, // the grounded answer
      "token", // streamed as soon as the evidence is in
      ...TOOL_RUN, // then the pack that records the answer's context
      ...CLOSING,
    ]);
    for (const e of events) {
      const def = sessionEvents[e.event as SessionEventType];
      expect(def.data.safeParse(e.data).success, `${e.event} matches its schema`).toBe(true);
      const [, persisted, tier] = specRow(e.event!)!;
      expect({ type: e.event, tier: def.tier, persisted: def.persisted }).toEqual({ type: e.event, tier, persisted });
    }
    const [response] = dataOf<{ text: string; citations: { source_path: string; text_span: string }[] }>(
      events,
      "response",
    );
    expect(response!.text).toMatch(/^Alice\./);
    expect(response!.citations[0]).toMatchObject({ source_path: "storage.md" });
    expect(NOTE).toContain(response!.citations[0]!.text_span);
    // The answer's sentence sits inside the chunk the pack cited: listed once, as the chunk.
    const cited = response!.citations.map((c) => c.text_span);
    expect(cited.filter((span) => cited.some((o) => o !== span && o.includes(span)))).toEqual([]);
    // The tokens are the response, streamed.
    expect(
      dataOf<{ text: string }>(events, "token")
        .map((t) => t.text)
        .join(""),
    ).toBe(response!.text);
    expect(dataOf(events, "thinking")[0]!.text).toMatch(
      /^Plan: answer from cited evidence only \(service_grounded_answer\); then service_pack/,
    );
    const outcomes = dataOf<{ tool_name: string; status: string; tool_call_id: string; elapsed_ms: number }>(
      events,
      "tool_outcome",
    );
    expect(outcomes.map((o) => [o.tool_name, o.status])).toEqual([
      ["service_grounded_answer", "ok"],
      ["service_pack", "ok"],
    ]);
    // Every tool event carries the call's id.
    const calls = dataOf<{ tool_call_id: string; arguments: { _tool_call_id: string } }>(events, "tool_call");
    expect(calls.map((c) => c.arguments._tool_call_id)).toEqual(calls.map((c) => c.tool_call_id));
    expect(calls.map((c) => c.tool_call_id)).toEqual(outcomes.map((o) => o.tool_call_id));
    expect(dataOf(events, "reflection")[0]).toMatchObject({ passed: true });
    expect(dataOf(events, "retrieval")[0]).toMatchObject({ pack: { items: 1 } });
    expect(dataOf(events, "usage")[0]).toMatchObject({ cost_usd: 0 });
    expect(dataOf<{ output_tokens: number }>(events, "usage")[0]!.output_tokens).toBeGreaterThan(0);
    expect(dataOf<{ layers: string[] }>(events, "cognition")[0]!.layers.length).toBeGreaterThan(0);
    expect(dataOf(events, "session_state").map((s) => s.status)).toEqual(["running", "idle"]);

    // The log holds every persisted event of the stream, with the same ids, and never `session`.
    const log = await logOf(svc, sid);
    const streamed = events.filter((e) => e.event !== "session");
    expect(log.slice(1).map((e) => [e.id, e.event])).toEqual(streamed.map((e) => [e.id, e.event]));
    expect(types(log)).not.toContain("session");
    expect(events[0]!.id).toBe(log[0]!.id); // `session` carries the id of the last event before the turn
  });

  it("logs the events of a turn that are ready together in one write on PostgreSQL, one event a write on SQLite", async () => {
    const sid = await createSession(svc);
    const store = svc.runtime.store;
    const append = store.streams.appendStream.bind(store.streams);
    const writes: string[][] = [];
    store.streams.appendStream = (ws, stream, drafts) => {
      if (stream === sid) writes.push(drafts.map((d) => d.type));
      return append(ws, stream, drafts);
    };
    let events;
    try {
      events = await send(svc, sid, "Who picked PostgreSQL?");
    } finally {
      store.streams.appendStream = append;
    }
    const tokens = types(events).filter((t) => t === "token");
    expect(tokens.length).toBeGreaterThan(1);
    const run = [
      ["policy_decision", "tool_call"],
      ["tool_result", "tool_outcome"],
    ];
    // The answer's words come from the provider at once: one write, yet each its own token event.
    const groups = [OPENING, ["thinking"], ...run, tokens, ...run, CLOSING];
    // A write is a round trip on PostgreSQL (groups share one) and a commit on the loop on SQLite (one event each).
    expect(writes).toEqual(svc.config.databaseUrl ? groups : groups.flat().map((type) => [type]));
  });

  it("says plainly that memory holds no evidence, with a passing reflection and no citations", async () => {
    const sid = await createSession(svc);
    const events = await send(svc, sid, "What is the capital of Mongolia?");
    const outcome = dataOf(events, "tool_outcome").find((o) => o.tool_name === "service_grounded_answer")!;
    expect(outcome).toMatchObject({ status: "error", result: { error: { code: "insufficient_evidence" } } });
    expect(dataOf(events, "response")[0]!.text).toBe("Memory holds no evidence that answers this.");
    expect(dataOf(events, "reflection")[0]).toMatchObject({ passed: true });
    expect(types(events).at(-1)).toBe("completed");
  });

  it("answers a two-part question through two delegated sub-agents, keeping their snapshots", async () => {
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL? What needs migrating?");
    const subs = dataOf<{ agent_id: string; status: string; parent_session_id: string; session_id: string }>(
      events,
      "subagent_event",
    );
    expect(subs.map((s) => s.status)).toEqual(["running", "completed", "running", "completed"]);
    expect(subs.every((s) => s.parent_session_id === sid)).toBe(true);
    expect(dataOf(events, "tool_outcome").map((o) => [o.tool_name, o.status])).toEqual([
      ["delegate", "ok"],
      ["delegate", "ok"],
    ]);
    const text = String(dataOf(events, "response")[0]!.text);
    expect(text).toContain("Alice");
    const detail = (await (await svc.get(`/chat/sessions/${sid}`)).json()) as {
      subagents: { agent_id: string; status: string; answer: string }[];
    };
    expect(detail.subagents.map((s) => s.status)).toEqual(["completed", "completed"]);
    // A sub-agent's own session is a read-only session of its own, readable like any other.
    const child = (await (await svc.get(`/chat/sessions/${subs[1]!.session_id}`)).json()) as {
      session: { permission_mode: string; parent_session_id: string };
    };
    expect(child.session).toMatchObject({ permission_mode: "read-only", parent_session_id: sid });
  });

  it("lists exactly the registry's event types at /stream-events, and the stream routes document the same set", async () => {
    const res = await svc.app.request("/stream-events");
    const listed = ((await res.json()) as { events: { type: string; tier: string; persisted: boolean }[] }).events;
    expect(listed.map((e) => e.type).sort()).toEqual(Object.keys(sessionEvents).sort());
    for (const e of listed) expect([e.persisted, e.tier]).toEqual(specRow(e.type)!.slice(1));
    const doc = (await (await svc.app.request("/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = (
      doc.paths["/sessions/{session_id}/events/stream"]!.get as unknown as {
        responses: { "200": { "x-events": string[] } };
      }
    ).responses["200"]["x-events"];
    expect(documented?.slice().sort()).toEqual(Object.keys(sessionEvents).sort());
  });
});
