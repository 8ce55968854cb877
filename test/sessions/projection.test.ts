// What the log says about a session, on logs a crash can leave behind: an approval asked but its pause never logged.
import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../src/ports/event-log.ts";
import { openTurn, pendingApproval } from "../../src/sessions/log/projection.ts";

const S = "ses_00000000-0000-0000-0000-000000000001";
const log = (...events: [string, object][]): StreamEvent[] =>
  events.map(([type, data], i) => ({ stream: S, seq: i + 1, at: 0, type, data }));
const ask: [string, object] = [
  "approval_required",
  { request_id: "apr_1", tool_name: "service_ingest", reason: "writes" },
];

describe("session projections", () => {
  it("counts an approval as pending only once its turn paused for it, and not after a decision or a failure", () => {
    const start: [string, object] = ["turn_start", { turn_id: "t1", message: "m" }];
    const paused: [string, object] = ["turn_end", { turn_id: "t1", status: "awaiting_approval" }];
    expect(pendingApproval(log(start, ask, paused))).toMatchObject({ request_id: "apr_1" });
    expect(pendingApproval(log(start, ask))).toBeNull(); // cut off before the pause was logged
    expect(
      pendingApproval(
        log(start, ask, ["turn_end", { turn_id: "t1", status: "error" }], ["error", { code: "turn_interrupted" }]),
      ),
    ).toBeNull();
    expect(
      pendingApproval(log(start, ask, paused, ["approval_applied", { request_id: "apr_1", decision: "deny" }])),
    ).toBeNull();
  });

  it("finds the open turn: started or resumed by a decision, and not yet ended", () => {
    const start: [string, object] = ["turn_start", { turn_id: "t1", message: "m" }];
    expect(openTurn(log(start))).toEqual({ turnId: "t1" });
    expect(openTurn(log(start, ["turn_end", { turn_id: "t1", status: "awaiting_approval" }]))).toBeNull();
    expect(
      openTurn(
        log(
          start,
          ["turn_end", { turn_id: "t1", status: "awaiting_approval" }],
          ["approval_applied", { request_id: "apr_1" }],
        ),
      ),
    ).toEqual({ turnId: "t1" });
    expect(openTurn(log(["session_state", {}]))).toBeNull();
  });
});
