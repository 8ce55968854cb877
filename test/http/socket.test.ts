// The same app over a real TCP socket: JSON round trips, auth and size limits as a network client sees them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import type { RecallResponse } from "../../src/contract/memory.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
let server: RunningServer;

beforeAll(async () => {
  svc = await startTestService();
  server = await listen(svc.app, "127.0.0.1", 0);
});
afterAll(async () => {
  await server.close();
  await svc.cleanup();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${svc.token}`, ...headers },
    body,
  });

describe("over a socket", () => {
  it("binds an ephemeral port and answers health checks", async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", version: svc.runtime.version });
  });

  it("ingests, recalls and forgets with JSON bodies", async () => {
    const content = "# Kitchen\n\nThe sourdough starter is fed every morning with rye flour.\n";
    const ing = await post("/v1/memory/ingest", JSON.stringify({ source_path: "home/kitchen.md", content }));
    expect(ing.status).toBe(200);
    expect(ing.headers.get("content-type")).toMatch(/^application\/json/);
    const rec = (await (
      await post("/v1/memory/recall", JSON.stringify({ query: "sourdough starter rye" }))
    ).json()) as RecallResponse;
    expect(rec.hits).toHaveLength(1);
    expect(content).toContain(rec.hits[0]!.text_span);
    expect(rec.hits[0]!.anchor).toBe("Kitchen");
    const fg = await post("/v1/memory/forget", JSON.stringify({ source_path: "home/kitchen.md" }));
    expect(fg.status).toBe(200);
    const again = (await (
      await post("/v1/memory/recall", JSON.stringify({ query: "sourdough starter rye" }))
    ).json()) as RecallResponse;
    expect(again.hits).toEqual([]);
  });

  it("accepts UTF-8 content and returns it byte-exact", async () => {
    const content = "# Café\n\nNaïve façade — 東京 and Zürich, emoji 🚀 included.\n";
    expect((await post("/v1/memory/ingest", JSON.stringify({ source_path: "intl.md", content }))).status).toBe(200);
    const rec = (await (
      await post("/v1/memory/recall", JSON.stringify({ query: "façade Zürich" }))
    ).json()) as RecallResponse;
    expect(rec.hits[0]?.text_span).toBe("# Café\n\nNaïve façade — 東京 and Zürich, emoji 🚀 included.");
  });

  it("413 for a body whose Content-Length is over the limit", async () => {
    const res = await post("/v1/memory/ingest", JSON.stringify({ content: "y".repeat(limits.maxBodyBytes + 1) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    // The server is still healthy afterwards.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("413 for a streamed body with no Content-Length, counted as it arrives", async () => {
    const piece = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far past the limit if the server kept reading; it answers once the count crosses it.
        if (sent > limits.maxBodyBytes * 4) return controller.close();
        sent += piece.byteLength;
        controller.enqueue(piece);
      },
    });
    const res = await fetch(`${server.url}/v1/memory/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${svc.token}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("a body just under the limit is read (and then validated)", async () => {
    const padding = "z".repeat(limits.maxBodyBytes - 200);
    const res = await post("/v1/memory/recall", JSON.stringify({ query: "x", padding }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });

  it("401 without a token and 404 for unknown routes, as JSON error envelopes", async () => {
    const noAuth = await fetch(`${server.url}/v1/memory/recall`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({ error: { code: "unauthorized" } });
    const missing = await fetch(`${server.url}/v2/anything`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "route_not_found" } });
  });

  it("serves concurrent requests consistently", async () => {
    await post(
      "/v1/memory/ingest",
      JSON.stringify({ source_path: "c.md", content: "# C\n\nConcurrent readers see the heron note.\n" }),
    );
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        post("/v1/memory/recall", JSON.stringify({ query: "heron note" })).then(
          (r) => r.json() as Promise<RecallResponse>,
        ),
      ),
    );
    for (const r of results) expect(r.hits.map((h) => h.source_path)).toEqual(["c.md"]);
  });
});
