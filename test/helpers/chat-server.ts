// A local server speaking the OpenAI-compatible streaming chat wire protocol over a socket; each test scripts its replies.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Script = (res: ServerResponse, body: WireRequest, req: IncomingMessage) => void;
export interface WireRequest {
  model: string;
  messages: {
    role: string;
    content: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { function: { name: string } }[];
  [k: string]: unknown;
}

export interface ChatServer {
  base: string;
  requests: WireRequest[];
  /** Replies to the next requests in order; the last script answers any further ones. */
  script(...scripts: Script[]): void;
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  let scripts: Script[] = [];
  const requests: WireRequest[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d: Buffer) => (raw += d.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw) as WireRequest;
      requests.push(body);
      const next = scripts.length > 1 ? scripts.shift()! : scripts[0];
      if (next) next(res, body, req);
      else res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    script: (...s) => void (scripts = s),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export const openSse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });
export const data = (res: ServerResponse, payload: object | string) =>
  res.write(`data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`);
export const delta = (d: object, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

/** A request with `stream: false` (LangChain's and the AI SDK's default) gets one JSON chat.completion. */
const completion = (res: ServerResponse, message: object, finish: string) =>
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      id: "chatcmpl-wire",
      object: "chat.completion",
      created: 0,
      model: "wire-model",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    }),
  );

/** A whole reply: text in pieces, then the end with usage. */
export const say =
  (...pieces: string[]): Script =>
  (res, body) => {
    if (body.stream !== true) {
      completion(res, { content: pieces.join("") }, "stop");
      return;
    }
    openSse(res);
    for (const p of pieces) data(res, delta({ content: p }));
    data(res, delta({}, "stop"));
    data(res, { choices: [], usage: { prompt_tokens: 20, completion_tokens: pieces.length } });
    data(res, "[DONE]");
    res.end();
  };

/** A reply asking for tool calls, each call's arguments split across two chunks as servers do. */
export const callTools =
  (...calls: { name: string; args: string }[]): Script =>
  (res, body) => {
    if (body.stream !== true) {
      completion(
        res,
        {
          content: null,
          tool_calls: calls.map((c, i) => ({
            id: `wire_${i}`,
            type: "function",
            function: { name: c.name, arguments: c.args },
          })),
        },
        "tool_calls",
      );
      return;
    }
    openSse(res);
    calls.forEach((c, index) => {
      const half = Math.floor(c.args.length / 2);
      data(
        res,
        delta({
          tool_calls: [
            {
              index,
              id: `wire_${index}`,
              type: "function",
              function: { name: c.name, arguments: c.args.slice(0, half) },
            },
          ],
        }),
      );
      data(res, delta({ tool_calls: [{ index, function: { arguments: c.args.slice(half) } }] }));
    });
    data(res, delta({}, "tool_calls"));
    data(res, { choices: [], usage: { prompt_tokens: 30, completion_tokens: 10 } });
    data(res, "[DONE]");
    res.end();
  };
