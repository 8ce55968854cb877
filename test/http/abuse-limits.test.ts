// Per-token abuse limits on a real server: the request rate (429 with Retry-After, nothing written, the client waits
// and retries), open event streams per token, MCP over HTTP under the same budget, and slow clients closed.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/client/index.ts";
import { TokenLimiter } from "../../src/services/token-limits.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { mountMcpHttp } from "../../src/transports/mcp/http.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const RATE = 5; // a bucket of 10
const HEADERS_TIMEOUT_MS = 1_000;

let svc: TestService;
let server: RunningServer;
let other: string;

const send = (path: string, token: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The limiter's clock: frozen where a test counts a burst, so a slow client cannot let the bucket refill meanwhile. */
const clock: { frozen: number | null } = { frozen: null };
const frozen = async (body: () => Promise<void>) => {
  clock.frozen = performance.now();
  try {
    await body();
  } finally {
    clock.frozen = null;
  }
};

/** A token of its own for a test, so no test waits for another's bucket to fill up again. */
const freshToken = async () => (await svc.issueToken()).token;

beforeAll(async () => {
  svc = await startTestService();
  other = (await svc.issueToken()).token;
  const limiter = new TokenLimiter(
    { ratePerSecond: RATE, streamsPerToken: 2 },
    () => clock.frozen ?? performance.now(),
  );
  server = await listen(
    createHttpApp(svc.runtime, (a) => mountMcpHttp(a, svc.runtime, limiter), limiter),
    "127.0.0.1",
    0,
    { headersTimeoutMs: HEADERS_TIMEOUT_MS },
  );
});
afterAll(async () => {
  await server.close();
  await svc.cleanup();
});

describe("per-token rate limit", () => {
  it("answers 429 rate_limited with Retry-After past the burst, writes nothing, and leaves other tokens alone", () =>
    frozen(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 2 * RATE; i++)
        statuses.push((await send("/v1/memory/recall", svc.token, { query: "lantern" })).status);
      expect(statuses).toEqual(Array(2 * RATE).fill(200));
      const refused = await send("/v1/memory/ingest", svc.token, {
        source_path: "limited.md",
        content: "# Limited\n\nThis must not be stored.\n",
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({
        error: {
          code: "rate_limited",
          message: expect.any(String),
          details: { retry_after_seconds: expect.any(Number), limit_per_second: RATE },
        },
      });
      expect(await svc.runtime.store.documents.getDocument(svc.workspaceId, "limited.md")).toBeUndefined();
      expect((await send("/v1/memory/recall", other, { query: "lantern" })).status).toBe(200);
    }));

  it("counts MCP over HTTP against the same budget", () =>
    frozen(async () => {
      const token = await freshToken();
      const call = (id: number) => send("/mcp", token, { jsonrpc: "2.0", id, method: "tools/list" });
      const statuses: number[] = [];
      for (let i = 0; i <= 2 * RATE; i++) statuses.push((await call(i)).status);
      expect(statuses.slice(0, 2 * RATE).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    }));

  it("the client waits out Retry-After and sends the refused request again", async () => {
    const client = createClient({ baseUrl: server.url, token: await freshToken() });
    const started = performance.now();
    for (let i = 0; i < 3 * RATE; i++) expect((await client.recall({ query: "lantern" })).hits).toEqual([]);
    expect(performance.now() - started).toBeGreaterThan(900); // at least one wait of a second
    const impatient = createClient({ baseUrl: server.url, token: await freshToken(), rateLimitRetries: 0 });
    await expect(
      Promise.all(Array.from({ length: 3 * RATE }, () => impatient.recall({ query: "lantern" }))),
    ).rejects.toMatchObject({ status: 429, code: "rate_limited" });
  });
});

describe("open event streams per token", () => {
  it("refuses a third stream with 429 too_many_streams and accepts one again after a stream closes", async () => {
    const token = await freshToken();
    const session = (await (await send("/chat/sessions", token, {})).json()) as { session_id: string };
    const path = `/sessions/${session.session_id}/events/stream`;
    const aborts = [new AbortController(), new AbortController()];
    const open = await Promise.all(
      aborts.map((a) =>
        fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: a.signal }),
      ),
    );
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const third = await send(path, token);
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ error: { code: "too_many_streams", details: { limit: 2 } } });
    expect((await send(path, other)).status).toBe(200); // another token's budget
    aborts[0]!.abort();
    await expect.poll(async () => (await send(`${path}?follow=false`, token)).status, { timeout: 5_000 }).toBe(200);
    aborts[1]!.abort();
  });
});

describe("what the HTTP parser refuses", () => {
  it("answers with the error envelope too: 431 for oversized headers, 400 for bytes that are not HTTP", async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const s = connect(server.port, "127.0.0.1");
        let answer = "";
        s.on("data", (d: Buffer) => (answer += d.toString()));
        s.on("close", () => resolve(answer));
        s.on("error", () => resolve(answer));
        s.write(request);
      });
    const big = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.slice(big.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "headers_too_large" } });
    const junk = await raw("HELLO THERE\r\n\r\n");
    expect(junk).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(junk.slice(junk.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "malformed_http" } });
  });
});

describe("slow clients", () => {
  it("closes connections that never finish their headers, while others are served", async () => {
    const slow: Socket[] = [];
    const closed: Promise<number>[] = [];
    const t0 = performance.now();
    let timedOut = 0;
    for (let i = 0; i < 50; i++) {
      const s = connect(server.port, "127.0.0.1");
      s.on("error", () => {});
      s.on("data", (d: Buffer) => void (d.toString().includes('"code":"request_timeout"') && timedOut++));
      s.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
      closed.push(new Promise((r) => s.once("close", () => r(performance.now() - t0))));
      slow.push(s);
    }
    // A header line now and then never completes the request.
    const drip = setInterval(() => slow.forEach((s) => s.writable && s.write("X-Slow: 1\r\n")), 200);
    try {
      const served = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`${server.url}/healthz`).then((r) => r.status)),
      );
      expect(served).toEqual(Array(20).fill(200));
      const times = await Promise.all(closed);
      expect(Math.max(...times)).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
      expect(timedOut).toBe(50); // each told why, as a 408 with the envelope
    } finally {
      clearInterval(drip);
      slow.forEach((s) => s.destroy());
    }
  });
});

describe("closing the server", () => {
  it("cuts open event streams after a short grace instead of waiting for their clients", async () => {
    const own = await listen(createHttpApp(svc.runtime), "127.0.0.1", 0);
    const session = (await (await send("/chat/sessions", svc.token, {})).json()) as { session_id: string };
    const res = await fetch(`${own.url}/sessions/${session.session_id}/events/stream`, {
      headers: { authorization: `Bearer ${svc.token}` },
    });
    expect(res.status).toBe(200);
    const ended = res.text().then(
      () => "ended",
      () => "cut",
    );
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(["ended", "cut"]).toContain(await ended);
  });
});
