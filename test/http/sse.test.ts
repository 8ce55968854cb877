// The one SSE writer: ids and JSON data per message, comment heartbeats while a stream is quiet, and the source closed when it ends.
import { Hono } from "hono";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/contract/errors.ts";
import type { StreamMessage } from "../../src/contract/route.ts";
import { lastEventId, sse } from "../../src/transports/http/sse.ts";

describe("sse()", () => {
  it("writes each message with its id, event and JSON data, heartbeats while waiting, and closes the source at the end", async () => {
    let closed = false;
    async function* source(): AsyncGenerator<StreamMessage> {
      try {
        yield { id: "run/0", event: "run_started", data: { trajectory_id: "run" } };
        await new Promise((r) => setTimeout(r, 120)); // quiet long enough for heartbeats
        yield { id: "run/1", event: "step", data: { name: "retrieve", ms: 1.5 } };
      } finally {
        closed = true;
      }
    }
    const app = new Hono().get("/s", (c) => sse(c, source(), { heartbeatMs: 30 }));
    const res = await app.request("/s");
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const blocks = (await res.text()).split("\n\n").filter(Boolean);
    const fields = (block: string) =>
      Object.fromEntries(
        block.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
      );
    const events = blocks.filter((b) => !b.startsWith(":")).map(fields);
    expect(events).toEqual([
      { id: "run/0", event: "run_started", data: '{"trajectory_id":"run"}' },
      { id: "run/1", event: "step", data: '{"name":"retrieve","ms":1.5}' },
    ]);
    // The stream sample of docs/api.md shows the fields in the order the writer sends them.
    const order = (block: string) => block.split("\n").map((l) => l.slice(0, l.indexOf(":")));
    const sample = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8").match(
      /^event: run_started\n(?:.+\n)+/m,
    )?.[0];
    expect(sample && order(sample.trim())).toEqual(order(blocks[0]!));
    const heartbeats = blocks.map((b, i) => (b.startsWith(": keep-alive") ? i : -1)).filter((i) => i >= 0);
    expect(heartbeats.length).toBeGreaterThan(0);
    // Sent while the source was quiet: between the first event and the second.
    expect(heartbeats.every((i) => i > 0 && i < blocks.length - 1)).toBe(true);
    expect(closed).toBe(true);
  });

  it("ends with an error event carrying the code when its source fails (the store went away), not with a cut", async () => {
    async function* source(): AsyncGenerator<StreamMessage> {
      yield { id: "s/1", event: "token", data: { text: "half" } };
      await new Promise((r) => setTimeout(r, 10));
      throw new AppError("store_unavailable", "the database is unreachable; retry in 2 s", { retry_after_seconds: 2 });
    }
    const app = new Hono().get("/s", (c) => sse(c, source()));
    const blocks = (await (await app.request("/s")).text()).split("\n\n").filter((b) => b && !b.startsWith(":"));
    expect(blocks).toHaveLength(2);
    expect(blocks[1]).toBe(
      `event: error\ndata: {"code":"store_unavailable","message":"the database is unreachable; retry in 2 s","turn_id":null,"details":{"retry_after_seconds":2}}`,
    );
  });

  it("sends the messages its source has ready together in one write, and each after a wait at once", async () => {
    async function* source(): AsyncGenerator<StreamMessage> {
      for (let i = 0; i < 50; i++) yield { id: `s/${i}`, event: "token", data: { text: `w${i} ` } }; // one append's deltas
      await new Promise((r) => setTimeout(r, 30));
      yield { id: "s/50", event: "response", data: { text: "done" } };
      await new Promise((r) => setTimeout(r, 30));
      for (let i = 51; i < 3_000; i++) yield { id: `s/${i}`, event: "token", data: { text: "x".repeat(60) } }; // a long replay
    }
    const app = new Hono().get("/s", (c) => sse(c, source()));
    const reader = (await app.request("/s")).body!.pipeThrough(new TextDecoderStream()).getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const ids = (chunk: string) => [...chunk.matchAll(/^id: s\/(\d+)$/gm)].map((m) => Number(m[1]));
    expect(chunks.map(ids).flat()).toEqual(Array.from({ length: 3_000 }, (_, i) => i));
    expect(ids(chunks[0]!)).toHaveLength(50);
    expect(ids(chunks[1]!)).toEqual([50]); // the message after a wait is not held back for more
    // The replay (about 290 KB) goes out in pieces of at most 64 KB and one frame.
    const replay = chunks.slice(2);
    expect(replay.length).toBeGreaterThanOrEqual(5);
    expect(replay.length).toBeLessThan(20);
    expect(Math.max(...replay.map((c) => c.length))).toBeLessThan(64 * 1024 + 200);
  });

  it("reads Last-Event-ID, trimmed, and null when absent or blank", async () => {
    const app = new Hono().get("/id", (c) => c.json({ id: lastEventId(c) }));
    const id = async (headers: Record<string, string>) =>
      ((await (await app.request("/id", { headers })).json()) as { id: string | null }).id;
    expect(await id({ "last-event-id": " traj_x/3 " })).toBe("traj_x/3");
    expect(await id({ "last-event-id": "  " })).toBeNull();
    expect(await id({})).toBeNull();
  });
});
