// A chat session grown to a given number of logged events by extractive turns, and the rows the console should show for it.
import type { SmritiClient } from "../../src/client/index.ts";
import { shownRows, Timeline } from "../../web/src/sessions/timeline.ts";

export interface FilledSession {
  sessionId: string;
  turns: number;
  /** Events in the session's log (GET /sessions/{id}/events/stream?follow=false). */
  events: number;
  /** Rows of the default view once every event is folded in (the console's own fold), and the last one's key. */
  rows: number;
  lastRowKey: string;
  /** ms to read the whole log over HTTP in Node: the service's share of a first render. */
  streamReadMs: number;
}

const NOTES = [
  "# Decisions\n\nAlice picked PostgreSQL for the ledger in March, over SQLite, because of concurrent writers.\n\n## Ledger\n\nThe ledger keeps double entries; we decided to close books monthly.",
  "# Open loops\n\nWe still need to decide the backup schedule.\n\n## Follow-ups\n\nBob owes a review of the retention policy. Carol will benchmark the replica lag.",
];
const QUESTIONS = [
  "Who picked PostgreSQL?",
  "What did we decide about the ledger?",
  "list open loops",
  "When do we close the books?",
  "What does Bob owe?",
  "Why not SQLite for the ledger?",
  "Who benchmarks the replica lag?",
];

export async function ingestNotes(post: (path: string, body: unknown) => Promise<Response>): Promise<void> {
  for (const [i, content] of NOTES.entries()) {
    const res = await post("/v1/memory/ingest", { source_path: `notes/console-bench-${i}.md`, content });
    if (!res.ok) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
  }
}

/** Runs turns until the log holds at least `target` events, then folds the log as the console does. */
export async function fillSession(
  client: SmritiClient,
  target: number,
  onProgress: (events: number) => void,
): Promise<FilledSession> {
  const { session_id: sessionId } = await client.createChatSession({ approval_mode: "never" });
  let turns = 0;
  for (
    let events = await countEvents(client, sessionId);
    events < target;
    events = await countEvents(client, sessionId)
  ) {
    // Turns yield about as many events as they log: run the estimated rest, then count exactly.
    for (let yielded = events; yielded < target; turns++) {
      for await (const e of client.sendMessage(sessionId, QUESTIONS[turns % QUESTIONS.length]!)) {
        yielded++;
        if (e.event === "error") throw new Error(`turn ${turns} failed: ${JSON.stringify(e.data)}`);
      }
      if (turns % 25 === 0) onProgress(yielded);
    }
  }
  const t0 = performance.now();
  const log = [];
  for await (const e of client.sessionEvents(sessionId, { follow: false })) log.push(e);
  const streamReadMs = performance.now() - t0;
  const timeline = new Timeline();
  for (const e of log) timeline.add(e);
  const shown = shownRows(timeline.rows, false);
  return {
    sessionId,
    turns,
    events: log.length,
    rows: shown.length,
    lastRowKey: shown.at(-1)?.key ?? "",
    streamReadMs,
  };
}

async function countEvents(client: SmritiClient, sessionId: string): Promise<number> {
  let n = 0;
  for await (const _ of client.sessionEvents(sessionId, { follow: false })) n++;
  return n;
}
