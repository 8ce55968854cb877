// The OpenAI-compatible client against a real node:http server speaking POST /v1/embeddings.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOpenAiEmbedder } from "../../src/embed/openai.ts";
import { embeddingsUrl } from "../../src/embed/openai-wire.ts";
import { norm } from "../../src/domain/retrieval/vectors.ts";

const API_KEY = "sk-test-SECRET-1234567890";

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  contentType: string | undefined;
  body: { model?: unknown; input?: unknown };
}

type Behaviour = (
  body: Seen["body"],
  n: number,
) => { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number };

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let behaviour: Behaviour;

/** Deterministic fake embedding: [len, vowels, 1, index-ish] scaled, so order mistakes show up. */
function fakeVector(text: string): number[] {
  return [text.length, (text.match(/[aeiou]/g) ?? []).length + 1, 2, text.charCodeAt(0) % 7];
}

const ok: Behaviour = (body) => {
  const input = body.input as string[];
  const data = input.map((t, index) => ({ object: "embedding", index, embedding: fakeVector(t) }));
  return {
    status: 200,
    json: { object: "list", model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } },
  };
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Seen["body"];
    seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      auth: req.headers.authorization,
      contentType: req.headers["content-type"],
      body,
    });
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
      return;
    }
    const r = behaviour(body, seen.length);
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(r.status, {
        "content-type": r.json === undefined ? "text/plain" : "application/json",
        ...r.headers,
      });
      res.end(r.json === undefined ? (r.text ?? "") : JSON.stringify(r.json));
    }, r.delayMs ?? 0);
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen = [];
  behaviour = ok;
});

const fast = { retryDelayMs: 5, timeoutMs: 2_000 };

describe("OpenAI-compatible embedder over HTTP", () => {
  it("probes the dimensions once, then sends {model, input} with the bearer key", async () => {
    const e = await createOpenAiEmbedder({ baseUrl, model: "nomic-embed-text", apiKey: API_KEY, ...fast });
    expect(e.dimensions).toBe(4);
    expect(e.id).toBe("openai:nomic-embed-text@4");
    expect(seen).toHaveLength(1);
    const vs = await e.embed(["hello world", "a cat"]);
    expect(seen).toHaveLength(2);
    const req = seen[1]!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/v1/embeddings");
    expect(req.auth).toBe(`Bearer ${API_KEY}`);
    expect(req.contentType).toMatch(/application\/json/);
    expect(req.body).toEqual({ model: "nomic-embed-text", input: ["hello world", "a cat"] });
    expect(vs).toHaveLength(2);
  });

  it("orders results by `index` (server returns them reversed) and L2-normalises", async () => {
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, ...fast });
    const texts = ["first text", "second", "third one here"];
    const vs = await e.embed(texts);
    expect(seen).toHaveLength(1); // dimensions given: no probe
    texts.forEach((t, i) => {
      const raw = fakeVector(t);
      const len = Math.hypot(...raw);
      expect(Array.from(vs[i]!)).toEqual(raw.map((x) => Math.fround(x / len)));
      expect(norm(vs[i]!)).toBeCloseTo(1, 6);
    });
  });

  it("splits inputs into batches of batchSize and stitches them back in order", async () => {
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, batchSize: 2, ...fast });
    const texts = ["aa", "bbbbbb", "c", "dddd", "eeeeeeeee"];
    const vs = await e.embed(texts);
    expect(seen.map((s) => s.body.input)).toEqual([["aa", "bbbbbb"], ["c", "dddd"], ["eeeeeeeee"]]);
    texts.forEach((t, i) => expect(vs[i]![0]! / vs[i]![2]!).toBeCloseTo(t.length / 2, 5));
  });

  it("does not send blank texts; they embed to zero vectors", async () => {
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, ...fast });
    const vs = await e.embed(["", "real", "   "]);
    expect(seen.map((s) => s.body.input)).toEqual([["real"]]);
    expect(Array.from(vs[0]!)).toEqual([0, 0, 0, 0]);
    expect(norm(vs[1]!)).toBeCloseTo(1, 6);
    expect(Array.from(vs[2]!)).toEqual([0, 0, 0, 0]);
    expect(await e.embed([])).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it("retries a 429 (honouring Retry-After) and then succeeds", async () => {
    behaviour = (body, n) =>
      n === 1 ? { status: 429, json: { error: "slow down" }, headers: { "retry-after": "0" } } : ok(body, n);
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, ...fast });
    const [v] = await e.embed(["retry me"]);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.body).toEqual(seen[1]!.body);
    expect(norm(v!)).toBeCloseTo(1, 6);
  });

  it("gives up on persistent 5xx after maxRetries, with a clear message", async () => {
    behaviour = () => ({ status: 503, text: "model is loading" });
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, maxRetries: 2, ...fast });
    await expect(e.embed(["x"])).rejects.toThrow(/HTTP 503 Service Unavailable after 3 attempts: model is loading/);
    expect(seen).toHaveLength(3);
  });

  it("surfaces a 400 immediately (no retry) without leaking the API key", async () => {
    behaviour = () => ({
      status: 400,
      json: { error: { message: `bad input for key ${API_KEY}`, type: "invalid_request_error" } },
    });
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", apiKey: API_KEY, dimensions: 4, ...fast });
    const err = await e.embed(["x"]).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/HTTP 400 Bad Request: .*bad input for key \[redacted\]/);
    expect(err!.message).toContain(`${baseUrl}/v1/embeddings`);
    expect(err!.message).not.toContain(API_KEY);
    expect(seen).toHaveLength(1);
  });

  it("rejects responses whose dimensions or indices do not match", async () => {
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 3, ...fast });
    await expect(e.embed(["x"])).rejects.toThrow(/4-dimensional embedding, expected 3/);
    behaviour = () => ({ status: 200, json: { data: [{ index: 0, embedding: [1, 2, 3, 4] }] } });
    const e4 = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, ...fast });
    await expect(e4.embed(["x", "y"])).rejects.toThrow(/expected indices 0..1/);
    behaviour = () => ({ status: 200, text: "<html>proxy error</html>" });
    await expect(e4.embed(["x"])).rejects.toThrow(/not JSON/);
  });

  it("times out a hung request and reports it", async () => {
    behaviour = (body, n) => ({ ...ok(body, n), delayMs: 1_000 });
    const e = await createOpenAiEmbedder({ baseUrl, model: "m", dimensions: 4, timeoutMs: 100, maxRetries: 0 });
    await expect(e.embed(["x"])).rejects.toThrow(/timed out after 100 ms/);
  });

  it("applies the timeout to a response body that stalls after the headers", async () => {
    const stalling = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":[');
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
      const e = await createOpenAiEmbedder({
        baseUrl: url,
        model: "m",
        dimensions: 4,
        timeoutMs: 100,
        maxRetries: 1,
        retryDelayMs: 1,
      });
      await expect(e.embed(["x"])).rejects.toThrow(/failed after 2 attempt\(s\): timed out after 100 ms/);
    } finally {
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
    }
  });

  it("reports connection failures after bounded retries", async () => {
    const e = await createOpenAiEmbedder({
      baseUrl: "http://127.0.0.1:1",
      model: "m",
      dimensions: 4,
      maxRetries: 1,
      retryDelayMs: 1,
    });
    await expect(e.embed(["x"])).rejects.toThrow(/request failed after 2 attempt\(s\)/);
  });
});

describe("embeddingsUrl", () => {
  it("accepts a server root, a /v1 base or the full endpoint", () => {
    expect(embeddingsUrl("http://localhost:11434").href).toBe("http://localhost:11434/v1/embeddings");
    expect(embeddingsUrl("http://localhost:11434/").href).toBe("http://localhost:11434/v1/embeddings");
    expect(embeddingsUrl("https://api.openai.com/v1").href).toBe("https://api.openai.com/v1/embeddings");
    expect(embeddingsUrl("https://api.openai.com/v1/").href).toBe("https://api.openai.com/v1/embeddings");
    expect(embeddingsUrl("http://h/proxy/v1/embeddings").href).toBe("http://h/proxy/v1/embeddings");
    expect(() => embeddingsUrl("not a url")).toThrow(/invalid embeddings base URL/);
  });
});
