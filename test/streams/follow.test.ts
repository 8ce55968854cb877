// followStream over a real SQLite store: backlog then live events, the terminal event ends it, another process's appends
// arrive by polling, this process's are handed over without a read.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EventLog, StreamEvent } from "../../src/ports/event-log.ts";
import { followStream } from "../../src/services/streams/follow.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-follow-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ev = (type: string, data: unknown = null) => ({ type, at: Date.now(), data });
const isDone = (e: StreamEvent) => e.type === "done";

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const e of events) all.push(e);
  return all;
}

describe("followStream", () => {
  it("yields the logged events after the seq, then each new one as it is appended, and ends after the terminal one", async () => {
    const store = openSqliteStore(join(dir, "one.db"));
    try {
      await store.streams.appendStream("ws", "run", [ev("a"), ev("b")]);
      const followed = collect(followStream(store.streams, "ws", "run", { afterSeq: 1, isLast: isDone }));
      await new Promise((r) => setTimeout(r, 20));
      await store.streams.appendStream("ws", "run", [ev("c")]);
      await store.streams.appendStream("ws", "run", [ev("done"), ev("after")]);
      expect((await followed).map((e) => [e.seq, e.type])).toEqual([
        [2, "b"],
        [3, "c"],
        [4, "done"],
      ]);
    } finally {
      await store.close();
    }
  });

  it("sees events appended through another handle (another process) without a wake-up, by polling", async () => {
    const file = join(dir, "two.db");
    const reader = openSqliteStore(file);
    const writer = openSqliteStore(file);
    try {
      const started = Date.now();
      const followed = collect(followStream(reader.streams, "ws", "run", { afterSeq: 0, isLast: isDone }));
      await new Promise((r) => setTimeout(r, 50));
      await writer.streams.appendStream("ws", "run", [ev("x"), ev("done")]);
      expect((await followed).map((e) => e.type)).toEqual(["x", "done"]);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it("takes this process's appends as handed over, without reading them back, and reads the store across a gap", async () => {
    const store = openSqliteStore(join(dir, "four.db"));
    try {
      let reads = 0;
      let foreign: () => void = () => {};
      const counted: EventLog = {
        appendStream: store.streams.appendStream.bind(store.streams),
        readStream: (ws: string, stream: string, after: number, limit: number) => (
          reads++,
          store.streams.readStream(ws, stream, after, limit)
        ),
        subscribeStream: (ws: string, stream: string, wake: (appended: readonly StreamEvent[] | null) => void) => {
          foreign = () => wake(null); // what a NOTIFY from another replica does
          return store.streams.subscribeStream(ws, stream, wake);
        },
      };
      const followed = collect(followStream(counted, "ws", "run", { afterSeq: 0, isLast: isDone }));
      await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 50; i++) {
        await store.streams.appendStream("ws", "run", [ev(`e${i}`)]);
        if (i % 3 === 0) await new Promise((r) => setImmediate(r)); // some appends while the follower is busy, some while it waits
      }
      expect(reads).toBe(1); // the backlog; every later event was handed over
      foreign();
      await new Promise((r) => setTimeout(r, 20));
      expect(reads).toBe(2);
      await store.streams.appendStream("ws", "run", [ev("done")]);
      const got = await followed;
      expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
      expect(got.map((e) => e.type).slice(0, 2)).toEqual(["e0", "e1"]);
    } finally {
      await store.close();
    }
  });

  it("ends at once when its signal aborts while it waits for the next event (a client that left)", async () => {
    const store = openSqliteStore(join(dir, "three.db"));
    try {
      await store.streams.appendStream("ws", "run", [ev("a")]);
      const gone = new AbortController();
      const started = performance.now();
      const followed = collect(
        followStream(store.streams, "ws", "run", { afterSeq: 0, isLast: isDone, signal: gone.signal }),
      );
      setTimeout(() => gone.abort(), 30);
      expect((await followed).map((e) => e.type)).toEqual(["a"]);
      expect(performance.now() - started).toBeLessThan(500); // well before its 1 s poll would have woken it
    } finally {
      await store.close();
    }
  });
});
