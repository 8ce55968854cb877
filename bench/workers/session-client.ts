// A separate client process that starts background sessions over HTTP all at once and follows some of their event
// streams, noting when each event arrives: the service's process then only serves, as it would for real clients.
import { parseSse } from "../../src/client/sse.ts";
import { reply } from "./ipc.ts";
import type { SessionClientCommand, SessionClientInit, SessionClientReport } from "./protocol.ts";

let init: SessionClientInit | null = null;

async function start(task: string, provider: string): Promise<string> {
  const body = JSON.stringify({ task, provider, approval_mode: "never", permission_mode: "read-only" });
  const res = await fetch(`${init!.url}/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${init!.token}`, "content-type": "application/json" },
    body,
  });
  if (!res.ok) throw new Error(`start failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session: { session_id: string } }).session.session_id;
}

async function follow(sessionId: string): Promise<SessionClientReport["sessions"][number]> {
  const res = await fetch(`${init!.url}/sessions/${sessionId}/events/stream`, {
    headers: { authorization: `Bearer ${init!.token}` },
  });
  const connected = Date.now();
  const seen: { seq: number; at: number }[] = [];
  for await (const e of parseSse(res.body!)) {
    seen.push({ seq: Number(e.id!.split("/")[1]), at: Date.now() });
    if (e.event === "completed" || e.event === "error") break;
  }
  return { sessionId, connected, seen };
}

async function run(cmd: SessionClientCommand): Promise<void> {
  const follows: Promise<SessionClientReport["sessions"][number]>[] = [];
  const sessionIds = await Promise.all(
    cmd.tasks.map(async (task, i) => {
      const id = await start(task, cmd.provider);
      if (i % cmd.followEvery === 0) follows.push(follow(id));
      return id;
    }),
  );
  await reply({ type: "started", sessionIds });
  await reply({ type: "arrivals", sessions: await Promise.all(follows) } satisfies SessionClientReport);
}

process.on("message", (m: SessionClientInit | SessionClientCommand) => {
  if (!init) {
    init = m as SessionClientInit;
    void reply({ type: "ready" });
  } else
    run(m as SessionClientCommand).catch((err: unknown) => {
      process.stderr.write(`session client: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
});
