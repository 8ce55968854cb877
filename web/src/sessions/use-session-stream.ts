// Follows a session's event log over SSE into a Timeline: resumes with Last-Event-ID after a drop (no duplicate rows),
// batches renders, and says whether the stream is live, reconnecting or dropped.
import { useCallback, useEffect, useRef, useState } from "react";
import type { SessionEvent } from "../../../src/client/index.ts";
import { useClient } from "../api.ts";
import { Timeline } from "./timeline.ts";

export type Connection = "connecting" | "live" | "reconnecting" | "dropped";

export function useSessionStream(sessionId: string) {
  const client = useClient();
  const timeline = useRef(new Timeline());
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState<unknown>(undefined);
  const [attempt, setAttempt] = useState(0);
  const flush = useRef<ReturnType<typeof setTimeout> | null>(null);

  /** Folds events from any stream (the log, a posted message, a decision); repeats are dropped by id. */
  const feed = useCallback((e: SessionEvent) => {
    if (!timeline.current.add(e) || flush.current) return;
    flush.current = setTimeout(() => {
      flush.current = null;
      setVersion((v) => v + 1);
    }, 16);
  }, []);

  useEffect(() => {
    timeline.current = new Timeline();
    setVersion((v) => v + 1);
  }, [sessionId]);

  useEffect(() => {
    const stop = new AbortController();
    setConnection("connecting");
    const lastEventId = timeline.current.lastEventId ?? undefined;
    void (async () => {
      try {
        const events = client.sessionEvents(sessionId, {
          follow: true,
          retries: 8,
          signal: stop.signal,
          ...(lastEventId ? { lastEventId } : {}),
          onOpen: () => setConnection("live"),
          onReconnect: () => setConnection("reconnecting"),
        });
        for await (const e of events) feed(e);
      } catch (err) {
        if (stop.signal.aborted) return;
        setError(err);
        setConnection("dropped");
      }
    })();
    return () => stop.abort();
  }, [client, sessionId, attempt, feed]);

  const reconnect = useCallback(() => {
    setError(undefined);
    setAttempt((a) => a + 1);
  }, []);
  return { timeline: timeline.current, version, connection, error, feed, reconnect };
}
