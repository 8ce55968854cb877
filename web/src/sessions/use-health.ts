// A background session's health snapshot: the detail's, then each new one the health stream sends when it changes.
import { useEffect, useState } from "react";
import type { HealthSnapshot } from "../../../src/client/index.ts";
import { useClient } from "../api.ts";

export function useHealth(sessionId: string | null, initial: HealthSnapshot | null): HealthSnapshot | null {
  const client = useClient();
  const [health, setHealth] = useState<HealthSnapshot | null>(initial);
  useEffect(() => {
    setHealth((h) => h ?? initial);
  }, [initial]);
  useEffect(() => {
    if (!sessionId) return;
    const stop = new AbortController();
    void (async () => {
      try {
        for await (const e of client.sessionHealth(sessionId, { retries: 8, signal: stop.signal }))
          if (e.event === "health_snapshot") setHealth(e.data);
      } catch {
        // The panel keeps the last snapshot; the timeline's stream shows the connection state.
      }
    })();
    return () => stop.abort();
  }, [client, sessionId]);
  return health;
}
