// Health: each budget trips on what the log says (the snapshot is derived, so a synthetic log drives each one), waivers
// after a resume or an approval, and the health stream over HTTP sends a snapshot once per change and only then.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type SessionEvent } from "../../src/client/index.ts";
import { HealthPolicy } from "../../src/contract/health.ts";
import type { StreamEvent } from "../../src/ports/event-log.ts";
import { healthOf, tripped } from "../../src/sessions/background/health.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { NOTE, startBackground, waitFor } from "./background-support.ts";

const SID = "ses_00000000-0000-0000-0000-000000000001";
const T0 = Date.UTC(2026, 0, 1);
const CITATION = {
  chunk_hash: `sha256:${"a".repeat(64)}`,
  source_path: "a.md",
  anchor: "A",
  text_span: "x",
  score: 0.9,
  retrieved_at: new Date(T0).toISOString(),
};

/** A log from (type, data) pairs, one second apart. */
const log = (...items: [string, Record<string, unknown>][]): StreamEvent[] =>
  items.map(([type, data], i) => ({ stream: SID, seq: i + 1, type, at: T0 + i * 1_000, data }));
const state = (status: string) =>
  ["session_state", { session_id: SID, status, attempt_count: 1, max_retries: 2 }] as [string, Record<string, unknown>];
const call = (name: string, args: object, id: string) =>
  ["tool_call", { name, arguments: { ...args, _tool_call_id: id }, tool_call_id: id }] as [
    string,
    Record<string, unknown>,
  ];
const outcome = (id: string, status: string, elapsed: number) =>
  [
    "tool_outcome",
    { tool_call_id: id, tool_name: "t", outcome_type: "t", status, elapsed_ms: elapsed, result: {} },
  ] as [string, Record<string, unknown>];

const check = (events: StreamEvent[], health: Record<string, unknown>, now = T0 + events.length * 1_000) => {
  const policy = HealthPolicy.parse({ health: { action: "pause", ...health } });
  const s = events.findLast((e) => e.type === "session_state")!.data as never;
  const snapshot = healthOf({ events, state: s, policy, heartbeatAt: now, now, staleMs: 10_000 });
  return { snapshot, tripped: tripped(snapshot, policy) };
};

describe("health budgets", () => {
  it("each budget trips when the log crosses it, and stays quiet under it", () => {
    const cases: [string, number, StreamEvent[]][] = [
      ["max_runtime_minutes", 0.01, log(state("running"), ["token", { turn_id: "t", text: "x" }])],
      [
        "max_total_tokens",
        100,
        log(state("running"), [
          "step_progress",
          { step: 1, total: null, label: "l", status: "done", turn_id: "t", input_tokens: 90, output_tokens: 20 },
        ]),
      ],
      [
        "max_cost_usd",
        0.5,
        log(state("running"), ["usage", { turn_id: "t", input_tokens: 1, output_tokens: 1, cost_usd: 0.75 }]),
      ],
      [
        "max_cost_usd",
        0.5,
        log(
          state("running"),
          [
            "step_progress",
            {
              step: 1,
              total: null,
              label: "l",
              status: "done",
              turn_id: "t",
              input_tokens: 1,
              output_tokens: 1,
              cost_usd: 0.3,
            },
          ],
          [
            "step_progress",
            {
              step: 2,
              total: null,
              label: "l",
              status: "done",
              turn_id: "t",
              input_tokens: 1,
              output_tokens: 1,
              cost_usd: 0.3,
            },
          ],
        ),
      ],
      [
        "max_context_usage_pct",
        50,
        log(state("running"), [
          "step_progress",
          { step: 1, total: null, label: "l", status: "done", context_tokens: 600, budget_tokens: 1000 },
        ]),
      ],
      [
        "max_failed_tool_calls",
        1,
        log(
          state("running"),
          call("a", {}, "c1"),
          outcome("c1", "error", 1),
          call("b", {}, "c2"),
          outcome("c2", "timeout", 1),
        ),
      ],
      ["max_loop_warnings", 0, log(state("running"), call("a", { q: 1 }, "c1"), call("a", { q: 1 }, "c2"))],
      [
        "max_repeated_plan_events",
        0,
        log(
          state("running"),
          ["thinking", { turn_id: "t", text: "Plan: x" }],
          ["thinking", { turn_id: "t", text: "Plan: x" }],
        ),
      ],
      ["max_tool_latency_ms", 100, log(state("running"), call("a", {}, "c1"), outcome("c1", "ok", 250))],
      [
        "max_events_without_evidence",
        0,
        log(state("running"), ["response", { turn_id: "t", text: "no idea", citations: [] }]),
      ],
      [
        "min_score",
        0.8,
        log(
          state("running"),
          [
            "transport_diagnostic",
            {
              status: "fallback",
              kind: "server",
              provider_requested: "a",
              provider_actual: "b",
              reason: "r",
              failure_count: 1,
            },
          ],
          [
            "transport_diagnostic",
            {
              status: "fallback",
              kind: "server",
              provider_requested: "a",
              provider_actual: "b",
              reason: "r",
              failure_count: 2,
            },
          ],
          [
            "transport_diagnostic",
            {
              status: "fallback",
              kind: "server",
              provider_requested: "a",
              provider_actual: "b",
              reason: "r",
              failure_count: 3,
            },
          ],
        ),
      ],
    ];
    for (const [budget, limit, events] of cases) {
      expect(check(events, { [budget]: limit }).tripped, budget).toContain(budget);
      // Generous: the same log is fine.
      const generous = budget === "min_score" ? 0 : budget === "max_context_usage_pct" ? 100 : 1e9;
      expect(check(events, { [budget]: generous }).tripped, `${budget} generous`).not.toContain(budget);
    }
  });

  it("acts only while running or recovering, and not in observe mode", () => {
    const events = log(state("paused"), call("a", { q: 1 }, "c1"), call("a", { q: 1 }, "c2"));
    expect(check(events, { max_loop_warnings: 0 }).tripped).toEqual([]);
    const running = log(state("running"), call("a", { q: 1 }, "c1"), call("a", { q: 1 }, "c2"));
    const policy = HealthPolicy.parse({ health: { max_loop_warnings: 0 }, enforcement: { mode: "observe" } });
    const snapshot = healthOf({
      events: running,
      state: running[0]!.data as never,
      policy,
      heartbeatAt: T0,
      now: T0,
      staleMs: 10_000,
    });
    expect(snapshot.flags.budget).toBe(true);
    expect(tripped(snapshot, policy)).toEqual([]);
  });

  it("waives a budget after a resume from a health pause, and after an approved health approval", () => {
    const paused = log(
      state("running"),
      [
        "session_checkpoint",
        {
          session_id: SID,
          sequence: 1,
          checkpoint_type: "health_pause",
          status: "paused",
          summary_text: "s",
          resume_cursor: null,
          budgets: ["max_loop_warnings"],
        },
      ],
      state("paused"),
      state("running"),
      call("a", { q: 1 }, "c1"),
      call("a", { q: 1 }, "c2"),
    );
    expect(check(paused, { max_loop_warnings: 0 }).tripped).toEqual([]);
    const asked = log(
      state("running"),
      [
        "approval_required",
        { request_id: "apr_1", tool_name: "health_policy", reason: "r", budgets: ["max_loop_warnings"] },
      ],
      ["approval_applied", { request_id: "apr_1", tool_name: "health_policy", decision: "approve" }],
      state("running"),
      call("a", { q: 1 }, "c1"),
      call("a", { q: 1 }, "c2"),
    );
    expect(check(asked, { max_loop_warnings: 0 }).tripped).toEqual([]);
    const denied = log(
      state("running"),
      [
        "approval_required",
        { request_id: "apr_1", tool_name: "health_policy", reason: "r", budgets: ["max_loop_warnings"] },
      ],
      ["approval_applied", { request_id: "apr_1", tool_name: "health_policy", decision: "deny" }],
      state("running"),
      call("a", { q: 1 }, "c1"),
      call("a", { q: 1 }, "c2"),
    );
    expect(check(denied, { max_loop_warnings: 0 }).tripped).toEqual(["max_loop_warnings"]);
  });

  it("flags a running session whose heartbeat went stale as stuck, with a recovery hint; provenance counts citations", () => {
    const events = log(state("running"), ["response", { turn_id: "t", text: "a", citations: [CITATION, CITATION] }]);
    const policy = HealthPolicy.parse({});
    const s = healthOf({
      events,
      state: events[0]!.data as never,
      policy,
      heartbeatAt: T0,
      now: T0 + 60_000,
      staleMs: 10_000,
    });
    expect(s.flags.stuck).toBe(true);
    expect(s.recovery_hints.join(" ")).toMatch(/heartbeat stopped/);
    expect(s.memory_provenance).toEqual([{ chunk_hash: CITATION.chunk_hash, source_path: "a.md", times_cited: 2 }]);
  });
});

describe("the health stream", () => {
  let svc: TestService;
  let server: RunningServer;
  beforeAll(async () => {
    svc = await startTestService({ env: { SMRITI_SESSION_HEARTBEAT_MS: "100" } });
    server = await listen(svc.app, "127.0.0.1", 0);
    expect((await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  it("sends one snapshot for a session that no longer changes, and none again on a resume with its id", async () => {
    const client = createClient({ baseUrl: server.url, token: svc.token });
    const s = await startBackground(svc, { task: "Who picked PostgreSQL?", approval_mode: "never" });
    await waitFor(svc, s.session.session_id, ["completed"]);
    const snapshots: SessionEvent[] = [];
    for await (const e of client.sessionHealth(s.session.session_id)) snapshots.push(e);
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ event: "health_snapshot", data: { status: "completed", score: 1 } });
    const again: SessionEvent[] = [];
    for await (const e of client.sessionHealth(s.session.session_id, { lastEventId: snapshots[0]!.id })) again.push(e);
    expect(again).toEqual([]);
  });

  it("sends a new snapshot on each change and only then: a paused session is quiet until it resumes", async () => {
    const client = createClient({ baseUrl: server.url, token: svc.token });
    const s = await startBackground(svc, {
      task: "t",
      engine: "command",
      command: ["sh", "-c", "sleep 20"],
      approval_mode: "never",
    });
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    await svc.post(`/sessions/${sid}/pause`, {});
    const stop = new AbortController();
    const seen: SessionEvent[] = [];
    const reading = (async () => {
      try {
        for await (const e of client.sessionHealth(sid, { signal: stop.signal })) seen.push(e);
      } catch {
        // aborted
      }
    })();
    await new Promise((r) => setTimeout(r, 600)); // several ticks of the stream: nothing changes while paused
    expect(seen).toHaveLength(1);
    expect(seen[0]!.data).toMatchObject({ status: "paused" });
    await svc.post(`/sessions/${sid}/cancel`, {});
    await reading; // a terminal status ends the stream
    expect(seen.map((e) => (e.data as { status: string }).status)).toEqual(["paused", "cancelled"]);
    stop.abort();
    // Consecutive snapshots always differ (each has its own id).
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  });

  it("a failed session shows no budget flag and no 'approve to go on' hint; only a waiting one offers approval", () => {
    const failing = log(
      state("running"),
      call("a", {}, "c1"),
      outcome("c1", "error", 1),
      call("a", {}, "c2"),
      outcome("c2", "error", 1),
      state("failed"),
    );
    const failed = check(failing, { max_failed_tool_calls: 1 }).snapshot;
    expect([failed.score, failed.flags.budget]).toEqual([0, false]);
    expect(failed.budgets.find((b) => b.name === "min_score")?.crossed).toBe(false);
    expect(failed.recovery_hints.join(" ")).not.toMatch(/approve|Over budget/);
    const running = check(log(state("running"), call("a", { q: 1 }, "c1"), call("a", { q: 1 }, "c2")), {
      max_loop_warnings: 0,
    }).snapshot;
    expect(running.flags.budget).toBe(true);
    expect(running.recovery_hints.join(" ")).toMatch(/Over budget \(max_loop_warnings\)/);
    expect(running.recovery_hints.join(" ")).not.toMatch(/approve/);
    const waiting = check(log(call("a", { q: 1 }, "c1"), call("a", { q: 1 }, "c2"), state("awaiting_approval")), {
      max_loop_warnings: 0,
    }).snapshot;
    expect(waiting.recovery_hints.join(" ")).toMatch(/approve to go on/);
  });
});
