// A bearer token never leaves the places it belongs: not in the service's log, its database (audit and session events,
// records, traces), error bodies, event streams or /metrics, whatever a client does with it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteReader } from "../../bench/soak/fingerprint.ts";
import { cliEnv, runJsonHere, startServe, type RunningServe } from "../cli/cli-helpers.ts";

let dir: string;
let srv: RunningServe;
let token: string;
let stderr = "";
const seen: string[] = [];

/** Every answer's body is kept for the search at the end. */
async function call(path: string, init: RequestInit = {}, auth: string | null = token): Promise<Response> {
  const res = await fetch(`${srv.url}${path}`, {
    ...init,
    headers: {
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(init.headers as Record<string, string>),
    },
  });
  seen.push(`${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.clone().text()}`);
  return res;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "smriti-secrets-"));
  await runJsonHere(["token", "create", "--json", "--data", dir]); // the first token: created, then left unused
  token = (await runJsonHere<{ token: string }>(["token", "create", "--json", "--actor", "agent-1", "--data", dir]))
    .token;
  srv = await startServe(dir, cliEnv({ SMRITI_RATE_LIMIT: "20" }));
  srv.child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
});
afterAll(async () => {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("tokens stay secret", () => {
  it("appear in no log line, stored row, error body, event stream or metric", async () => {
    await call("/v1/memory/ingest", {
      method: "POST",
      body: JSON.stringify({
        source_path: "a.md",
        content: `# A\n\nThe keeper's note mentions ${token.slice(0, 6)} only as text.\n`,
      }),
    });
    await call("/v1/memory/recall", { method: "POST", body: JSON.stringify({ query: "keeper" }) });
    await call("/v1/grounded/answer", {
      method: "POST",
      body: JSON.stringify({ question: "What does the keeper's note mention?", min_confidence: 0 }),
    });
    const session = (await (await call("/chat/sessions", { method: "POST", body: "{}" })).json()) as {
      session_id: string;
    };
    await call(`/chat/sessions/${session.session_id}/messages`, {
      method: "POST",
      body: JSON.stringify({ message: "What does the note mention?" }),
    });
    await call(`/sessions/${session.session_id}/events/stream?follow=false`);
    await call("/mcp", {
      method: "POST",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "service_recall", arguments: { query: "keeper" } },
      }),
    });
    // Errors of every kind a token holder can provoke, the token misspelt, sent twice, or in a body and a query.
    await call("/v1/memory/recall", { method: "POST", body: "{" });
    await call("/v1/memory/recall", { method: "POST", body: JSON.stringify({ query: 42, token }) });
    await call(`/v1/decisions/${token}`);
    await call("/v1/memory/recall", { method: "POST", headers: { "x-svc-actor-id": "intruder" }, body: "{}" });
    await call("/v1/memory/recall", { method: "POST", body: "{}" }, `${token}x`);
    await call("/v1/memory/recall", {
      method: "POST",
      headers: { authorization: `Bearer ${token}, Bearer ${token}` },
      body: "{}",
    });
    // Into the rate limit (20/s, bursts of 40) at once: however slow this client, 150 requests outrun the refill.
    await Promise.all(
      Array.from({ length: 150 }, () =>
        call("/v1/memory/recall", { method: "POST", body: JSON.stringify({ query: "keeper" }) }),
      ),
    );
    expect(seen.some((s) => s.startsWith("429"))).toBe(true);
    expect(seen.filter((s) => s.startsWith("200")).length).toBeGreaterThan(10);
    const metrics = await (await fetch(`${srv.url}/metrics`)).text();
    expect(metrics).toContain("smriti_http_request_duration_seconds");

    const reader = sqliteReader(join(dir, "smriti.db")); // the memory file and the session log's
    const stored = await reader.texts().finally(() => reader.close());
    expect(stored.some(([table, text]) => table === "stream_events" && text.length > 0)).toBe(true); // the search did read the session's events
    expect(stored.some(([table, text]) => table === "events" && text.length > 0)).toBe(true); // and the audit log
    for (const [place, text] of [
      ["the service's log", stderr],
      ["the database", stored.map(([, text]) => text).join("\n")],
      ["answers", seen.join("\n")],
      ["/metrics", metrics],
    ] as const)
      expect(text.includes(token), `the token appears in ${place}`).toBe(false);
  });
});
