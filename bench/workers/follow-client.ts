// A separate client process that follows session event streams over SSE and notes when each event arrives, so the
// latency measured is the server's, not the bench process's own event loop.
import { parseSse } from "../../src/client/sse.ts";
import { reply } from "./ipc.ts";
import type { FollowClientCommand, FollowClientInit, FollowClientReport } from "./protocol.ts";

let init: FollowClientInit | null = null;
const follows: Promise<FollowClientReport["sessions"][number]>[] = [];

async function follow(sessionId: string): Promise<FollowClientReport["sessions"][number]> {
  const res = await fetch(`${init!.url}/sessions/${sessionId}/events/stream`, { headers: { authorization: `Bearer ${init!.token}` } });
  const connected = Date.now();
  const seen: { seq: number; at: number }[] = [];
  for await (const e of parseSse(res.body!)) {
    seen.push({ seq: Number(e.id!.split("/")[1]), at: Date.now() });
    if (e.event === "completed" || e.event === "error") break;
  }
  return { sessionId, connected, seen };
}

process.on("message", (m: FollowClientInit | FollowClientCommand) => {
  if (!init) {
    init = m as FollowClientInit;
    void reply({ type: "ready" });
  } else if ((m as FollowClientCommand).type === "follow") follows.push(follow((m as { sessionId: string }).sessionId));
  else
    Promise.all(follows)
      .then((sessions) => reply({ type: "arrivals", sessions } satisfies FollowClientReport))
      .catch((err: unknown) => {
        process.stderr.write(`follow client: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      });
});
