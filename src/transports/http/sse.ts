// The one SSE writer: every stream route sends its messages with `id:` lines and comment heartbeats through this.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { StreamMessage } from "../../contract/route.ts";

/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/** The Last-Event-ID a reconnecting client sent (EventSource sends it as a header), or null. */
export function lastEventId(c: Context): string | null {
  return c.req.header("last-event-id")?.trim() || null;
}

/**
 * Writes the messages as server-sent events until they end or the client goes away; then `onAbort` runs (the handler's
 * signal, which ends a source waiting for its next message) and the source is closed.
 */
export function sse(c: Context, messages: AsyncIterable<StreamMessage>, opts: { heartbeatMs?: number; onAbort?: () => void; onClose?: (() => void) | undefined } = {}): Response {
  return streamSSE(c, async (stream) => {
    const heartbeat = setInterval(() => void stream.write(": keep-alive\n\n").catch(() => {}), opts.heartbeatMs ?? HEARTBEAT_MS);
    const source = messages[Symbol.asyncIterator]();
    stream.onAbort(() => opts.onAbort?.());
    try {
      for (let next = await source.next(); !next.done && !stream.aborted; next = await source.next())
        await stream.writeSSE({ id: next.value.id, event: next.value.event, data: JSON.stringify(next.value.data) });
    } catch {
      // The client went away mid-write: what it missed stays in the log for a resume.
    } finally {
      clearInterval(heartbeat);
      opts.onClose?.();
      await source.return?.();
    }
  });
}
