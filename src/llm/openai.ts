// An OpenAI-compatible chat-completions provider (Ollama, vLLM, llama.cpp server, LM Studio, OpenAI): one streamed step.
import { ProviderError, type ChatMessage, type LlmProvider, type ProviderEvent, type ToolSpec } from "../ports/llm.ts";
import { ChatStreamAssembler } from "./chat-stream.ts";

export interface OpenAiOptions {
  /** A server root ("http://127.0.0.1:11434"), its ".../v1" base, or the full chat/completions URL. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** No first byte, or no chunk, for this long ends the step with a timeout (default 60 s). */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
}

/** The chat/completions endpoint for any of the base URL forms people paste. */
export function chatCompletionsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith("/chat/completions")
    ? path
    : `${path.endsWith("/v1") ? path : `${path}/v1`}/chat/completions`;
  return url;
}

const toWire = (m: ChatMessage) => ({
  role: m.role,
  content: m.content,
  ...(m.toolCalls?.length
    ? {
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      }
    : {}),
  ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
});

const toolWire = (t: ToolSpec) => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

export function createOpenAiProvider(opts: OpenAiOptions): LlmProvider {
  const url = chatCompletionsUrl(opts.baseUrl);
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return {
    id: "openai",
    model: opts.model,
    async *step({ messages, tools, signal }): AsyncGenerator<ProviderEvent> {
      const idle = new AbortController();
      let timer = setTimeout(() => idle.abort(), timeoutMs);
      const stillAlive = () => (clearTimeout(timer), (timer = setTimeout(() => idle.abort(), timeoutMs)));
      const body = {
        model: opts.model,
        stream: true,
        stream_options: { include_usage: true },
        messages: messages.map(toWire),
        ...(tools.length ? { tools: tools.map(toolWire) } : {}),
      };
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
            },
            body: JSON.stringify(body),
            signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
          });
        } catch (err) {
          throw idle.signal.aborted
            ? new ProviderError("timeout", `no answer from ${url.host} in ${timeoutMs} ms`)
            : new ProviderError("unreachable", `${url.host}: ${(err as Error).message}`);
        }
        if (!res.ok || !res.body) throw statusError(res.status, url.host);
        const assembler = new ChatStreamAssembler();
        for await (const line of lines(res.body, () => idle.signal.aborted, timeoutMs, stillAlive)) {
          if (!line.startsWith("data:")) continue; // blank separators, ": comments", "event:" lines
          yield* assembler.push(line.slice(5).trim());
        }
        yield* assembler.end();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function statusError(status: number, host: string): ProviderError {
  if (status === 429) return new ProviderError("rate_limited", `${host} answered 429 (rate limited)`);
  if (status >= 500) return new ProviderError("server", `${host} answered ${status}`);
  return new ProviderError("protocol", `${host} answered ${status}`);
}

/** The response body as text lines; a dropped connection is a cut-off, silence past the timeout a timeout. */
async function* lines(
  body: ReadableStream<Uint8Array>,
  timedOut: () => boolean,
  timeoutMs: number,
  onChunk: () => void,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for await (const bytes of body) {
      onChunk();
      buffered += decoder.decode(bytes, { stream: true });
      const parts = buffered.split(/\r?\n/);
      buffered = parts.pop()!;
      yield* parts;
    }
  } catch (err) {
    throw timedOut()
      ? new ProviderError("timeout", `the stream went quiet for ${timeoutMs} ms`)
      : new ProviderError("cut", `the stream broke off: ${(err as Error).message}`);
  }
  if (buffered) yield buffered;
}
