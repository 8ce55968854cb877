// The one SSE writer: ids and JSON data per message, comment heartbeats while a stream is quiet, and the source closed when it ends.
import { Hono } from "hono";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
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
    const fields = (block: string) => Object.fromEntries(block.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]));
    const events = blocks.filter((b) => !b.startsWith(":")).map(fields);
    expect(events).toEqual([
      { id: "run/0", event: "run_started", data: '{"trajectory_id":"run"}' },
      { id: "run/1", event: "step", data: '{"name":"retrieve","ms":1.5}' },
    ]);
    // The README's stream sample shows the fields in the order the writer sends them.
    const order = (block: string) => block.split("\n").map((l) => l.slice(0, l.indexOf(":")));
    const sample = readFileSync(new URL("../../README.md", import.meta.url), "utf8").match(/^event: run_started\n(?:.+\n)+/m)?.[0];
    expect(sample && order(sample.trim())).toEqual(order(blocks[0]!));
    const heartbeats = blocks.map((b, i) => (b.startsWith(": keep-alive") ? i : -1)).filter((i) => i >= 0);
    expect(heartbeats.length).toBeGreaterThan(0);
    // Sent while the source was quiet: between the first event and the second.
    expect(heartbeats.every((i) => i > 0 && i < blocks.length - 1)).toBe(true);
    expect(closed).toBe(true);
  });

  it("reads Last-Event-ID, trimmed, and null when absent or blank", async () => {
    const app = new Hono().get("/id", (c) => c.json({ id: lastEventId(c) }));
    const id = async (headers: Record<string, string>) => ((await (await app.request("/id", { headers })).json()) as { id: string | null }).id;
    expect(await id({ "last-event-id": " traj_x/3 " })).toBe("traj_x/3");
    expect(await id({ "last-event-id": "  " })).toBeNull();
    expect(await id({})).toBeNull();
  });
});
