// A stand-in for a remote model (which cannot run here): an OpenAI-compatible streaming chat server on loopback that
// takes `delayMs` per step, as a model would. Its first step calls the grounded answer; the next one answers.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface PacedModel {
  url: string;
  close(): Promise<void>;
}

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export async function startPacedModel(delayMs: number): Promise<PacedModel> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (b: Buffer) => (body += b.toString("utf8")));
    req.on("end", () => {
      const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
      const last = messages.at(-1)!;
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (last.role === "user") {
          const args = JSON.stringify({ question: last.content });
          res.write(
            chunk(
              {
                tool_calls: [
                  { index: 0, id: "call_1", function: { name: "service_grounded_answer", arguments: args } },
                ],
              },
              null,
            ),
          );
          res.write(chunk({}, "tool_calls"));
        } else {
          res.write(chunk({ content: "Answered from memory." }, null));
          res.write(chunk({}, "stop"));
        }
        res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 10 } })}\n\n`);
        res.end("data: [DONE]\n\n");
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
