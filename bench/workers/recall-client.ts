// A separate client process that times recall requests over HTTP, for a count or until told to stop.
import { postJson } from "../lib/http-client.ts";
import { reply } from "./ipc.ts";
import type { RecallClientCommand, RecallClientInit } from "./protocol.ts";

let init: RecallClientInit | null = null;
let next = 0;
let stopping = false;

async function recallOnce(latencies: number[]): Promise<void> {
  const { url, token, queries, mode } = init!;
  const query = queries[next++ % queries.length]!;
  const t0 = performance.now();
  await postJson(`${url}/v1/memory/recall`, token, { query, k: 10, mode });
  latencies.push(performance.now() - t0);
}

async function run(cmd: RecallClientCommand): Promise<void> {
  const latencies: number[] = [];
  if (cmd.type === "run") for (let i = 0; i < cmd.count; i++) await recallOnce(latencies);
  else if (cmd.type === "loop") {
    stopping = false;
    while (!stopping) await recallOnce(latencies);
  }
  await reply({ type: "samples", latencies, wrapped: next > init!.queries.length });
}

process.on("message", (m: RecallClientInit | RecallClientCommand) => {
  if (!init) {
    init = m as RecallClientInit;
    void reply({ type: "ready" });
  } else if ((m as RecallClientCommand).type === "stop") stopping = true;
  else
    run(m as RecallClientCommand).catch((err: unknown) => {
      process.stderr.write(`recall client: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
});
