// The OpenAI-compatible provider against a local server that speaks the real streaming protocol over a socket:
// a whole turn with tool-call fragments and usage, a stream cut mid-way, a silent server, 429 and 500.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionsUrl, createOpenAiProvider } from "../../src/llm/openai.ts";
import type { ProviderEvent } from "../../src/ports/llm.ts";

type Script = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;
let script: Script = () => {};
let base = "";
const requests: Record<string, unknown>[] = [];
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (d: Buffer) => (raw += d.toString()));
  req.on("end", () => {
    const body = JSON.parse(raw) as Record<string, unknown>;
    requests.push(body);
    script(req, res, body);
  });
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });
const data = (res: ServerResponse, payload: object | string) =>
  res.write(`data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`);
const delta = (d: object, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

async function step(timeoutMs = 2_000): Promise<ProviderEvent[]> {
  const provider = createOpenAiProvider({ baseUrl: `${base}/v1`, model: "test-model", apiKey: "sk-test", timeoutMs });
  const out: ProviderEvent[] = [];
  for await (const e of provider.step({
    messages: [{ role: "user", content: "why postgres?" }],
    tools: [{ name: "service_recall", description: "recall", parameters: { type: "object" } }],
  }))
    out.push(e);
  return out;
}

describe("openai-compatible provider", () => {
  it("streams text, assembles tool calls split across chunks and packets, reports usage, and sends model, tools and stream flags", async () => {
    script = (_req, res) => {
      sse(res);
      data(res, delta({ role: "assistant", content: "Let me look." }));
      // A JSON chunk split across two TCP writes, and a tool call split across chunks.
      const first = `data: ${JSON.stringify(delta({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "service_recall", arguments: '{"query":' } }] }))}\n\n`;
      res.write(first.slice(0, 20));
      setTimeout(() => {
        res.write(first.slice(20));
        data(res, delta({ tool_calls: [{ index: 0, function: { arguments: ' "postgres"}' } }] }, "tool_calls"));
        data(res, { choices: [], usage: { prompt_tokens: 12, completion_tokens: 9 } });
        data(res, "[DONE]");
        res.end();
      }, 20);
    };
    expect(await step()).toEqual([
      { type: "text", text: "Let me look." },
      { type: "tool_call", call: { id: "call_1", name: "service_recall", arguments: '{"query": "postgres"}' } },
      { type: "usage", inputTokens: 12, outputTokens: 9 },
      { type: "done", finishReason: "tool_calls" },
    ]);
    expect(requests.at(-1)).toMatchObject({
      model: "test-model",
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: "function", function: { name: "service_recall" } }],
    });
  });

  it("calls a stream that breaks off before the model finished a cut-off", async () => {
    script = (_req, res) => {
      sse(res);
      data(res, delta({ content: "Half an" }));
      setTimeout(() => res.destroy(), 20);
    };
    await expect(step()).rejects.toMatchObject({ name: "ProviderError", kind: "cut" });
  });

  it("ends with a timeout when the server goes silent, and maps 429 and 500", async () => {
    script = (_req, res) => {
      sse(res);
      data(res, delta({ content: "Thinking" }));
    };
    await expect(step(200)).rejects.toMatchObject({ kind: "timeout" });
    script = (_req, res) => res.writeHead(429).end('{"error":"slow down"}');
    await expect(step()).rejects.toMatchObject({ kind: "rate_limited" });
    script = (_req, res) => res.writeHead(500).end("boom");
    await expect(step()).rejects.toMatchObject({ kind: "server" });
  });

  it("finds the endpoint from a server root, a /v1 base or the full URL", () => {
    for (const u of ["http://h:11434", "http://h:11434/v1", "http://h:11434/v1/", "http://h:11434/v1/chat/completions"])
      expect(chatCompletionsUrl(u).href).toBe("http://h:11434/v1/chat/completions");
  });
});
