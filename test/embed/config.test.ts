import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedderFromEnv, parseEmbedderEnv } from "../../src/embed/config.ts";

describe("parseEmbedderEnv", () => {
  it("defaults to glove, honouring SMRITI_CACHE_DIR", () => {
    expect(parseEmbedderEnv({})).toEqual({ kind: "glove" });
    expect(parseEmbedderEnv({ SMRITI_EMBEDDER: "" })).toEqual({ kind: "glove" });
    expect(parseEmbedderEnv({ SMRITI_EMBEDDER: " GloVe ", SMRITI_CACHE_DIR: "/tmp/x" })).toEqual({
      kind: "glove",
      cacheDir: "/tmp/x",
    });
  });

  it("none means lexical only", () => {
    expect(parseEmbedderEnv({ SMRITI_EMBEDDER: "none" })).toEqual({ kind: "none" });
  });

  it("parses a complete openai configuration", () => {
    expect(
      parseEmbedderEnv({
        SMRITI_EMBEDDER: "openai",
        SMRITI_EMBED_URL: "http://localhost:11434",
        SMRITI_EMBED_MODEL: "nomic-embed-text",
        SMRITI_EMBED_API_KEY: "sk-1",
        SMRITI_EMBED_DIMENSIONS: "768",
      }),
    ).toEqual({
      kind: "openai",
      baseUrl: "http://localhost:11434",
      model: "nomic-embed-text",
      apiKey: "sk-1",
      dimensions: 768,
    });
    expect(
      parseEmbedderEnv({
        SMRITI_EMBEDDER: "openai",
        SMRITI_EMBED_URL: "https://api.example.com/v1",
        SMRITI_EMBED_MODEL: "m",
        SMRITI_EMBED_API_KEY: "",
      }),
    ).toEqual({ kind: "openai", baseUrl: "https://api.example.com/v1", model: "m" });
  });

  it("rejects an unknown embedder", () => {
    expect(() => parseEmbedderEnv({ SMRITI_EMBEDDER: "bert" })).toThrow(
      /Invalid embedder configuration: SMRITI_EMBEDDER must be one of glove, onnx, openai, none/,
    );
  });

  it("names every missing or malformed openai variable, never echoing the key", () => {
    const attempt = () =>
      parseEmbedderEnv({
        SMRITI_EMBEDDER: "openai",
        SMRITI_EMBED_URL: "ftp://x",
        SMRITI_EMBED_DIMENSIONS: "-3",
        SMRITI_EMBED_API_KEY: "sk-secret-xyz",
      });
    expect(attempt).toThrow(/SMRITI_EMBED_URL must be an http\(s\) URL/);
    expect(attempt).toThrow(/SMRITI_EMBED_MODEL is required when SMRITI_EMBEDDER=openai/);
    expect(attempt).toThrow(/SMRITI_EMBED_DIMENSIONS must be a positive integer/);
    expect(attempt).not.toThrow(/sk-secret-xyz/);
    expect(() => parseEmbedderEnv({ SMRITI_EMBEDDER: "openai", SMRITI_EMBED_MODEL: "m" })).toThrow(
      /SMRITI_EMBED_URL is required when SMRITI_EMBEDDER=openai/,
    );
    expect(() =>
      parseEmbedderEnv({
        SMRITI_EMBEDDER: "openai",
        SMRITI_EMBED_URL: "http://x",
        SMRITI_EMBED_MODEL: "m",
        SMRITI_EMBED_DIMENSIONS: "1.5",
      }),
    ).toThrow(/SMRITI_EMBED_DIMENSIONS must be a positive integer/);
  });
});

describe("createEmbedderFromEnv", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const input = (JSON.parse(body) as { input: string[] }).input;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [3, 4, 0, 0, 0] })) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("loads the offline GloVe embedder by default", async () => {
    const e = await createEmbedderFromEnv({});
    expect(e?.id).toBe("glove-sif-100d@1");
    expect(e?.dimensions).toBe(100);
  });

  it("returns null for none", async () => {
    expect(await createEmbedderFromEnv({ SMRITI_EMBEDDER: "none" })).toBeNull();
  });

  it("builds an openai embedder, probing the dimensions when not configured", async () => {
    const e = await createEmbedderFromEnv({
      SMRITI_EMBEDDER: "openai",
      SMRITI_EMBED_URL: url,
      SMRITI_EMBED_MODEL: "tiny",
    });
    expect(e?.id).toBe("openai:tiny@5");
    const [v] = await e!.embed(["hi"]);
    expect(Array.from(v!)).toEqual([0.6, 0.8, 0, 0, 0].map(Math.fround));
  });

  it("uses configured dimensions without probing and routes through an injected fetch", async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const e = await createEmbedderFromEnv(
      { SMRITI_EMBEDDER: "openai", SMRITI_EMBED_URL: url, SMRITI_EMBED_MODEL: "tiny", SMRITI_EMBED_DIMENSIONS: "5" },
      { fetch: fetchSpy },
    );
    expect(e?.id).toBe("openai:tiny@5");
    expect(calls).toEqual([]);
    await e!.embed(["x"]);
    expect(calls).toEqual([`${url}/v1/embeddings`]);
  });
});
