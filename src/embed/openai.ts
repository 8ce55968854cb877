// Embedder over any OpenAI-compatible POST /v1/embeddings endpoint (OpenAI, Ollama, TEI, vLLM).
import type { Embedder } from "../ports/embedding.ts";
import { embeddingsUrl, parseEmbeddingsResponse } from "./openai-wire.ts";
import { backoffMs, isRetryableStatus, retryAfterMs, sleep } from "./retry.ts";
import { normalize } from "../domain/retrieval/vectors.ts";

export interface OpenAiEmbedderOptions {
  /** Server root ("http://localhost:11434"), its "/v1", or the full ".../embeddings" URL. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never included in error messages. */
  apiKey?: string;
  /** Expected vector size; if omitted, `createOpenAiEmbedder` probes the server once. */
  dimensions?: number;
  /** Inputs per request (default 32, the default client batch limit of HF TEI). */
  batchSize?: number;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Retries after a 408/429/5xx, network error or timeout (default 4). */
  maxRetries?: number;
  /** Base of the exponential backoff in ms (default 500, capped at 10 s; Retry-After wins). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

const PROBE_TEXT = "dimension probe";

/** Creates the embedder, first probing the server for the vector size if it is not given. */
export async function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Promise<OpenAiEmbedder> {
  if (opts.dimensions !== undefined) return new OpenAiEmbedder(opts, opts.dimensions);
  const probe = new OpenAiEmbedder(opts, 0);
  const [vector] = await probe.request([PROBE_TEXT]);
  if (vector === undefined || vector.length === 0) {
    throw new Error(`${probe.describe()}: probe returned an empty embedding`);
  }
  return new OpenAiEmbedder(opts, vector.length);
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly opts: OpenAiEmbedderOptions;
  private readonly url: URL;
  private readonly fetchImpl: typeof fetch;

  /** `dimensions` 0 disables the size check (used only for probing). Prefer `createOpenAiEmbedder`. */
  constructor(opts: OpenAiEmbedderOptions, dimensions: number) {
    this.opts = opts;
    if (!Number.isInteger(dimensions) || dimensions < 0) throw new Error(`invalid dimensions: ${dimensions}`);
    if (opts.model.trim() === "") throw new Error("embedding model name is empty");
    this.url = embeddingsUrl(opts.baseUrl);
    this.fetchImpl = opts.fetch ?? globalThis.fetch;
    this.dimensions = dimensions;
    this.id = `openai:${opts.model}@${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    // Blank inputs are rejected by some servers (OpenAI); they embed to the zero vector locally.
    const todo = texts.flatMap((t, i) => (t.trim() === "" ? [] : [i]));
    const batchSize = Math.max(1, this.opts.batchSize ?? 32);
    for (let start = 0; start < todo.length; start += batchSize) {
      const slots = todo.slice(start, start + batchSize);
      const vectors = await this.request(slots.map((i) => texts[i]!));
      slots.forEach((slot, j) => {
        out[slot] = normalize(Float32Array.from(vectors[j]!));
      });
    }
    return out;
  }

  /** One logical request (with retries); returns raw vectors in input order. */
  async request(input: readonly string[]): Promise<number[][]> {
    const maxRetries = Math.max(0, this.opts.maxRetries ?? 4);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let res: Response;
      let body: string;
      try {
        res = await this.fetchImpl(this.url, {
          method: "POST",
          headers: this.headers(),
          body: JSON.stringify({ model: this.opts.model, input }),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
        });
        body = await res.text(); // inside the try: the timeout and resets also apply to the body
      } catch (err) {
        if (!last) {
          await sleep(backoffMs(attempt, this.retryDelayMs()));
          continue;
        }
        throw new Error(`${this.describe()}: request failed after ${attempt + 1} attempt(s): ${this.errorText(err)}`);
      }
      if (res.ok) return this.parse(body, input.length);
      if (!last && isRetryableStatus(res.status)) {
        await sleep(retryAfterMs(res.headers.get("retry-after")) ?? backoffMs(attempt, this.retryDelayMs()));
        continue;
      }
      const detail = body.trim() === "" ? "" : `: ${this.redact(body.trim()).slice(0, 500)}`;
      const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : "";
      throw new Error(`${this.describe()}: HTTP ${res.status} ${res.statusText}${tries}${detail}`);
    }
  }

  /** "embeddings <origin+path> (model m)": never includes credentials or query strings. */
  describe(): string {
    return `embeddings ${this.url.origin}${this.url.pathname} (model ${this.opts.model})`;
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (this.opts.apiKey !== undefined && this.opts.apiKey !== "") h["authorization"] = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  private parse(text: string, expected: number): number[][] {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${this.describe()}: response is not JSON: ${this.redact(text).slice(0, 200)}`);
    }
    try {
      return parseEmbeddingsResponse(json, expected, this.dimensions);
    } catch (err) {
      throw new Error(`${this.describe()}: ${(err as Error).message}`);
    }
  }

  private retryDelayMs(): number {
    return this.opts.retryDelayMs ?? 500;
  }

  private errorText(err: unknown): string {
    if (err instanceof Error && err.name === "TimeoutError")
      return `timed out after ${this.opts.timeoutMs ?? 60_000} ms`;
    const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
    return this.redact(`${err instanceof Error ? err.message : String(err)}${cause}`);
  }

  private redact(s: string): string {
    const key = this.opts.apiKey;
    return key === undefined || key === "" ? s : s.split(key).join("[redacted]");
  }
}
