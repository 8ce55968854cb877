// SPEC rule 7: the event types the stream route lists and the ones the console handles are one set, both ways.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SessionEvent } from "../../src/client/index.ts";
import { sessionEvents, type SessionEventData, type SessionEventType } from "../../src/contract/events.ts";
import { folds, shownRows, Timeline } from "../../web/src/sessions/timeline.ts";
import { eventSamples } from "../helpers/event-samples.ts";
import { startConsoleService, type ConsoleService } from "../helpers/console-service.ts";

let c: ConsoleService;
beforeAll(async () => {
  c = await startConsoleService();
});
afterAll(async () => c.close());

it("GET /stream-events over HTTP equals the console's handled set", async () => {
  const listed = (await c.client.streamEvents()).events.map((e) => e.type);
  const handled = Object.keys(folds);
  expect(listed.length).toBeGreaterThan(30);
  expect(listed.filter((t) => !handled.includes(t))).toEqual([]);
  expect(handled.filter((t) => !listed.includes(t))).toEqual([]);
  expect(new Set(listed).size).toBe(listed.length);
});

// Default-tier events whose row only restates another one (a chat's running state, a completed turn's end, a passing
// claims check): the debug view shows their row, the default view does not (issue 41).
const QUIET = new Set<SessionEventType>(["session_state", "turn_end", "completed", "reflection"]);

it("each type folds once (a repeat by id changes nothing); a debug-tier event adds no default-view row but for the tool row it belongs to and the user's message", async () => {
  const tiers = new Map((await c.client.streamEvents()).events.map((e) => [e.type, e.tier]));
  for (const [type, data] of Object.entries(eventSamples) as [SessionEventType, unknown][]) {
    expect(sessionEvents[type].data.safeParse(data).success, type).toBe(true);
    const t = new Timeline();
    expect(t.add({ id: "ses_1/1", event: type, data } as SessionEvent)).toBe(true);
    const once = JSON.stringify(t.rows);
    expect(t.add({ id: "ses_1/1", event: type, data } as SessionEvent)).toBe(false);
    expect(JSON.stringify(t.rows)).toBe(once);
    const visible = shownRows(t.rows, false).map((r) => r.kind);
    if (tiers.get(type) === "debug")
      expect(
        visible.filter((k) => k !== "tool" && k !== "message"),
        type,
      ).toEqual([]);
    else if (type === "health_snapshot" || type === "session") continue;
    else expect([visible.length, shownRows(t.rows, true).length], type).toEqual([QUIET.has(type) ? 0 : 1, 1]);
  }
});

it("the events of one tool call fold into one row by tool_call_id, so two calls of one tool stay two rows", () => {
  const t = new Timeline();
  let seq = 0;
  const add = <K extends SessionEventType>(event: K, data: SessionEventData<K>) =>
    t.add({ id: `ses_1/${++seq}`, event, data } as SessionEvent);
  for (const id of ["call_a", "call_b"]) {
    add("tool_call", { name: "service_recall", arguments: { query: id }, tool_call_id: id });
    add("hook_event", { hook: "pre", phase: "before", tool_call_id: id, tool_name: "service_recall", status: "ok" });
  }
  add("tool_outcome", {
    tool_call_id: "call_b",
    tool_name: "service_recall",
    outcome_type: "result",
    status: "timeout",
    elapsed_ms: 30000,
    result: {},
  });
  add("tool_outcome", {
    tool_call_id: "call_a",
    tool_name: "service_recall",
    outcome_type: "result",
    status: "ok",
    elapsed_ms: 4,
    result: {},
  });
  const tools = t.rows.filter((r) => r.kind === "tool");
  expect(tools.map((r) => [r.id, r.status, r.events.length, (r.args as { query: string }).query])).toEqual([
    ["call_a", "ok", 3, "call_a"],
    ["call_b", "timeout", 3, "call_b"],
  ]);
});

it("a chat turn reads as its message, plan, tools and one answer holding its citations; a failed claims check shows", () => {
  const t = new Timeline();
  let seq = 0;
  const add = <K extends SessionEventType>(event: K, data: SessionEventData<K>) =>
    t.add({ id: `ses_1/${++seq}`, event, data } as SessionEvent);
  const turn_id = "turn_1";
  const state = eventSamples.session_state;
  add("session_state", { ...state, status: "idle" });
  add("turn_start", { turn_id, message: "Who picked PostgreSQL?" });
  add("session_state", { ...state, status: "running" });
  add("response", { turn_id, text: "Alice.", citations: eventSamples.retrieval.citations });
  add("reflection", {
    turn_id,
    check: "claims",
    passed: false,
    detail: "1 of 1 sentences have no citation behind them",
  });
  add("retrieval", eventSamples.retrieval);
  add("cognition", { turn_id, layers: ["manas", "sabha"], guardrails: [] });
  add("turn_end", { turn_id, status: "completed" });
  add("session_state", { ...state, status: "idle" });
  add("completed", { session_id: "ses_1" });
  expect(shownRows(t.rows, false).map((r) => r.kind)).toEqual(["message", "text", "reflection"]);
  const answer = t.rows.find((r) => r.kind === "text")!;
  expect(answer).toMatchObject({
    citations: eventSamples.retrieval.citations,
    pack: eventSamples.retrieval.pack,
    layers: ["manas", "sabha"],
  });
  expect(t.rows.reduce((n, r) => n + r.events.length, 0)).toBe(seq);
});
