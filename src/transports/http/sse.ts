// The one SSE writer: every stream route sends its messages with `id:` lines and comment heartbeats through this.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { AppError } from "../../contract/errors.ts";
import type { StreamMessage } from "../../contract/route.ts";
import { settlesBeforeIo } from "../../threads/loop-yield.ts";

/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** A batch of ready messages is written once it is this long (a replay of a long log goes out in pieces). */
const BATCH_CHARS = 64 * 1024;

/** The Last-Event-ID a reconnecting client sent (EventSource sends it as a header), or null. */
export function lastEventId(c: Context): string | null {
  return c.req.header("last-event-id")?.trim() || null;
}

/**
 * Writes the messages as server-sent events until they end or the client goes away; then `onAbort` runs (the handler's
 * signal, which ends a source waiting for its next message) and the source is closed. Messages the source has ready
 * together (a page read back, the events of one append: a turn's text deltas) leave in one write, as soon as the source
 * has to wait for more: each write is a trip through the response's streams and a syscall.
 */
export function sse(
  c: Context,
  messages: AsyncIterable<StreamMessage>,
  opts: { heartbeatMs?: number; onAbort?: () => void; onClose?: (() => void) | undefined } = {},
): Response {
  return streamSSE(c, async (stream) => {
    const heartbeat = setInterval(
      () => void stream.write(": keep-alive\n\n").catch(() => {}),
      opts.heartbeatMs ?? HEARTBEAT_MS,
    );
    const source = messages[Symbol.asyncIterator]();
    stream.onAbort(() => opts.onAbort?.());
    let batch = "";
    try {
      for (;;) {
        const pending = source.next();
        if (batch && (batch.length >= BATCH_CHARS || !(await settlesBeforeIo(pending)))) {
          await stream.write(batch);
          batch = "";
        }
        const next = await pending.catch((err: unknown) => ({ done: true as const, value: undefined, failed: err }));
        if ("failed" in next) batch += errorFrame(next.failed); // the source failed (the store went away): said, not cut
        if (next.done || stream.aborted) break;
        batch += frame(next.value);
      }
      if (batch && !stream.aborted) await stream.write(batch);
    } catch {
      // The client went away mid-write: what it missed stays in the log for a resume.
    } finally {
      clearInterval(heartbeat);
      opts.onClose?.();
      await source.return?.();
    }
  });
}

/**
 * The last frame of a stream whose source failed: an `error` event (no id: it is not in the log, so a resume with the
 * last id reads on from where the client was) with the error's stable code, store_unavailable when the database went away.
 */
function errorFrame(err: unknown): string {
  const e =
    err instanceof AppError ? err : new AppError("internal_error", "the stream failed; resume it with Last-Event-ID");
  return `event: error\ndata: ${JSON.stringify({ code: e.code, message: e.message, turn_id: null, ...(e.details !== undefined ? { details: e.details } : {}) })}\n\n`;
}

/** One message as an SSE frame, as Hono's writeSSE lays it out (JSON data is one line: it escapes line breaks). */
const frame = (m: StreamMessage) => `event: ${m.event}\ndata: ${JSON.stringify(m.data)}\nid: ${m.id}\n\n`;
