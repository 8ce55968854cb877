// One request as the soak sends it, and what a response must look like: a status, and for a 4xx the error envelope.
import { ErrorBody } from "../../src/contract/errors.ts";

export interface Sent {
  status: number;
  /** The body of a JSON answer (an event stream's is not read). */
  body: string;
  ms: number;
}

/** `streamMs`: how long to read an event stream that opened (0: not at all; following it may wait for ever). */
export async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array | null },
  timeoutMs = 10_000,
  streamMs = 0,
): Promise<Sent> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: init.method,
    headers: init.headers,
    ...(init.body != null ? { body: init.body } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = res.headers.get("content-type")?.startsWith("text/event-stream")
    ? await readFor(res, streamMs)
    : await res.text();
  return { status: res.status, body, ms: performance.now() - t0 };
}

async function readFor(res: Response, ms: number): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const until = performance.now() + ms;
  try {
    while (performance.now() < until) {
      const next = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, until - performance.now()))),
      ]);
      if (!next || next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}

/** True when a 4xx/5xx body is the documented `{"error":{"code","message","details"?}}` with a known code. */
export function isErrorEnvelope(body: string): boolean {
  try {
    return ErrorBody.strict().safeParse(JSON.parse(body)).success;
  } catch {
    return false;
  }
}
