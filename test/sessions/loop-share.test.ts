// Busy sessions leave the event loop to its sockets: new connections wait about one session slice each, not a round of
// every live session's slice (Node takes one new connection per turn of the loop).
import { createServer, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { yieldToRequests } from "../../src/sessions/turn/loop-share.ts";

const SESSIONS = 20;
const CLIENTS = 50;

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("yieldToRequests", () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((f) => f()));

  it("resumes waiting sessions in order, one per turn of the loop", async () => {
    const order: string[] = [];
    const sessions = ["a", "b", "c"].map((name) => yieldToRequests().then(() => order.push(name)));
    // Queued while a session runs: a callback of the next turn, which must come before the following session.
    void sessions[0]!.then(() => setImmediate(() => order.push("turn")));
    await Promise.all(sessions);
    await new Promise(setImmediate);
    expect(order).toEqual(["a", "b", "turn", "c"]);
  });

  it("accepts new connections while many sessions are busy", async () => {
    let accepted = 0;
    const sockets: Socket[] = [];
    const server = createServer((s) => (accepted++, sockets.push(s)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const clients = Array.from({ length: CLIENTS }, () => connect(port, "127.0.0.1"));
    cleanup.push(() => (clients.forEach((c) => c.destroy()), sockets.forEach((s) => s.destroy()), server.close()));
    await Promise.all(clients.map((c) => new Promise((r) => c.once("connect", r))));

    let slices = 0;
    let stop = false;
    const session = async () => {
      while (!stop) {
        spin(1);
        slices++;
        await yieldToRequests();
      }
    };
    const runs = Array.from({ length: SESSIONS }, session);
    while (accepted < CLIENTS) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await Promise.all(runs);
    // One round of every session per connection would be SESSIONS * CLIENTS = 1,000 slices.
    expect(slices).toBeLessThan(4 * CLIENTS);
  });
});
