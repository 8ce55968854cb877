// Resume over a real socket: a turn's stream is cut at 200 random points and picked up again with Last-Event-ID;
// together the two parts hold exactly the turn's events (0 lost, 0 duplicated), including those logged while away.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { prng } from "../helpers/prng.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, logOf } from "./support.ts";

const CUTS = 200;
const TURNS_PER_SESSION = 10;

describe("resuming a session stream with Last-Event-ID", () => {
  let svc: TestService;
  let server: RunningServer;
  beforeAll(async () => {
    svc = await startTestService();
    server = await listen(svc.app, "127.0.0.1", 0);
    await svc.post("/v1/memory/ingest", {
      source_path: "storage.md",
      content: "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n",
    });
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  const post = (sid: string, init: { body?: object; lastEventId?: string; signal?: AbortSignal }) =>
    fetch(`${server.url}/chat/sessions/${sid}/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${svc.token}`,
        "content-type": "application/json",
        ...(init.lastEventId ? { "last-event-id": init.lastEventId } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });

  it(`loses and repeats nothing across ${CUTS} random disconnections`, async () => {
    const random = prng(13);
    let sid = "";
    let lost = 0;
    let duplicated = 0;
    let awayWrites = 0;
    for (let cut = 0; cut < CUTS; cut++) {
      if (cut % TURNS_PER_SESSION === 0) sid = await createSession(svc);
      const logBefore = (await logOf(svc, sid)).length;
      const keep = random.int(1, 30);
      const gone = new AbortController();
      const first: SseEvent[] = [];
      const res = await post(sid, {
        body: {
          message: random.pick([
            "Who picked PostgreSQL?",
            "What is the capital of Mongolia?",
            "When was PostgreSQL picked?",
          ]),
        },
        signal: gone.signal,
      });
      try {
        for await (const e of parseSse(res.body!)) {
          first.push(e);
          if (first.length >= keep) break;
        }
      } finally {
        gone.abort();
      }
      await new Promise((r) => setTimeout(r, random.int(0, 15))); // away for a moment while the turn goes on
      const rest: SseEvent[] = [];
      const ended = first.at(-1)!.event === "completed";
      if (!ended)
        for await (const e of parseSse((await post(sid, { lastEventId: first.at(-1)!.id! })).body!)) rest.push(e);
      const log = (await logOf(svc, sid)).slice(logBefore);
      if (rest.length && log.findIndex((e) => e.id === rest[0]!.id) > log.findIndex((e) => e.id === first.at(-1)!.id))
        awayWrites++;
      const got = [...first.slice(1), ...rest].map((e) => e.id);
      expect(first.every((e) => e.id) && rest.every((e) => e.id)).toBe(true);
      lost += log.filter((e) => !got.includes(e.id)).length;
      duplicated += got.length - new Set(got).size;
      expect(got).toEqual(log.map((e) => e.id));
    }
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(awayWrites).toBeGreaterThan(0);
  }, 120_000);
});
