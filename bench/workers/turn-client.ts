// A separate client process that runs chat turns over HTTP back to back and times them, as a chat application
// would: the service's process then only serves (a client in its process would share its event loop).
import { lowerPriority } from "../../src/sessions/process/cpu-priority.ts";
import { parseSse } from "../../src/client/sse.ts";
import { reply } from "./ipc.ts";
import type { TurnClientCommand, TurnClientInit, TurnClientReport } from "./protocol.ts";

let init: TurnClientInit | null = null;

const headers = () => ({ authorization: `Bearer ${init!.token}`, "content-type": "application/json" });

async function createSession(): Promise<string> {
  const res = await fetch(`${init!.url}/chat/sessions`, { method: "POST", headers: headers(), body: "{}" });
  if (!res.ok) throw new Error(`session create failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session_id: string }).session_id;
}

async function turn(sessionId: string, message: string): Promise<TurnClientReport["turns"][number]> {
  const t0 = performance.now();
  const res = await fetch(`${init!.url}/chat/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ message }),
  });
  if (!res.ok) throw new Error(`turn failed: ${res.status} ${await res.text()}`);
  let first = NaN;
  let events = 0;
  for await (const e of parseSse(res.body!)) {
    events++;
    if (e.event === "token" && Number.isNaN(first)) first = performance.now() - t0;
  }
  return { first, end: performance.now() - t0, events };
}

async function run(messages: string[], turnsPerSession: number): Promise<void> {
  const turns: TurnClientReport["turns"] = [];
  const cpu = process.cpuUsage();
  let sessionId = "";
  for (const [i, message] of messages.entries()) {
    if (i % turnsPerSession === 0) sessionId = await createSession();
    turns.push(await turn(sessionId, message));
  }
  const { user, system } = process.cpuUsage(cpu);
  await reply({ type: "turns", turns, cpuMs: (user + system) / 1000 } satisfies TurnClientReport);
}

process.on("message", (m: TurnClientInit | TurnClientCommand) => {
  if (!init) {
    init = m as TurnClientInit;
    if (init.nice !== undefined) lowerPriority(init.nice);
    void reply({ type: "ready" });
    return;
  }
  const cmd = m as TurnClientCommand;
  run(cmd.messages, cmd.turnsPerSession).catch((err: unknown) => {
    process.stderr.write(`turn client: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
});
