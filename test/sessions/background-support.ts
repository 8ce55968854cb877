// Background session test helpers: start one through HTTP, read its detail, wait for a status.
import { expect } from "vitest";
import type { BackgroundSessionDetail } from "../../src/contract/background.ts";
import type { TestService } from "../helpers/runtime.ts";

export const NOTE =
  "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n\nTODO: migrate the reports job.\n";

export async function startBackground(
  svc: TestService,
  body: Record<string, unknown>,
): Promise<BackgroundSessionDetail> {
  const res = await svc.post("/sessions", body);
  if (res.status !== 200) throw new Error(`start failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as BackgroundSessionDetail;
}

/** A `command` session running `sh -c script` on task "t". */
export const startScript = (svc: TestService, script: string, approvalMode: "never" | "always") =>
  startBackground(svc, { engine: "command", command: ["sh", "-c", script], task: "t", approval_mode: approvalMode });

export async function detailOf(svc: TestService, sessionId: string): Promise<BackgroundSessionDetail> {
  const res = await svc.get(`/sessions/${sessionId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as BackgroundSessionDetail;
}

/** Polls the detail until the session is in one of `statuses` (a background run ends on its own time). */
export async function waitFor(
  svc: TestService,
  sessionId: string,
  statuses: readonly string[],
  timeoutMs = 10_000,
): Promise<BackgroundSessionDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = await detailOf(svc, sessionId);
    if (statuses.includes(d.session.status)) return d;
    if (Date.now() > until)
      throw new Error(`session ${sessionId} is ${d.session.status}, not ${statuses.join("|")}, after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const act = (
  svc: TestService,
  sessionId: string,
  action: "pause" | "resume" | "cancel",
  body: Record<string, unknown> = {},
) => svc.post(`/sessions/${sessionId}/${action}`, body);
