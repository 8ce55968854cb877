// The session process's leaving handshake, over a channel the test drives: what arrives between `leaving` and `left`
// (a connection, a queued session) keeps it, and it leaves only when `left` finds it still idle.
import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { serveForServingProcess, type ServingChannel } from "../../src/sessions/process/session-side.ts";
import { CONNECTION, LEFT, QUEUED } from "../../src/sessions/process/ipc.ts";

const IDLE_MS = 100;

/** A session process's side on a fake channel: what it sent, and a way to send it messages. */
function harness(atRest: () => boolean = () => true) {
  const sent: string[] = [];
  let listener: (message: unknown, handle: unknown) => void = () => {};
  const channel: ServingChannel = { send: (m) => void sent.push(m.type), onMessage: (l) => void (listener = l) };
  const seen = { accepted: 0, enqueued: [] as string[], left: 0 };
  serveForServingProcess(
    {
      accept: () => void seen.accepted++,
      enqueue: (_ws, id) => void seen.enqueued.push(id),
      atRest: async () => atRest(),
      idleMs: IDLE_MS,
      leave: () => void seen.left++,
    },
    channel,
  );
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 100 && !what(); i++) await sleep(10);
    expect(what()).toBe(true);
  };
  return { sent, seen, until, deliver: (message: unknown, handle?: unknown) => listener(message, handle) };
}

describe("the session process's leaving handshake", () => {
  it("says ready, then leaving when idle, and leaves when `left` finds it still idle", async () => {
    const h = harness();
    expect(h.sent).toEqual(["smriti:ready"]);
    await h.until(() => h.sent.includes("smriti:leaving"));
    expect(h.seen.left).toBe(0); // not before the serving process answers
    h.deliver({ type: LEFT });
    await h.until(() => h.seen.left === 1);
    expect(h.sent).toEqual(["smriti:ready", "smriti:leaving"]);
  });

  it("stays for a connection handed over before `left`, and says ready again", async () => {
    const h = harness();
    await h.until(() => h.sent.includes("smriti:leaving"));
    const socket = new EventEmitter() as unknown as Socket;
    h.deliver({ type: CONNECTION, head: "" }, socket);
    h.deliver({ type: LEFT });
    await h.until(() => h.sent.at(-1) === "smriti:ready");
    expect(h.seen).toMatchObject({ accepted: 1, left: 0 });
    // Once that connection has closed and the idle time has passed again, it asks to leave again.
    socket.emit("close");
    await h.until(() => h.sent.filter((t) => t === "smriti:leaving").length === 2);
    expect(h.seen.left).toBe(0);
  });

  it("stays for a background session queued before `left`", async () => {
    let resting = true;
    const h = harness(() => resting);
    await h.until(() => h.sent.includes("smriti:leaving"));
    h.deliver({ type: QUEUED, workspaceId: "ws", sessionId: "s1" });
    resting = false; // the supervisor runs it
    h.deliver({ type: LEFT });
    await h.until(() => h.sent.at(-1) === "smriti:ready");
    expect(h.seen).toMatchObject({ enqueued: ["s1"], left: 0 });
  });

  it("does not ask to leave while a turn or run is live", async () => {
    const h = harness(() => false);
    await sleep(IDLE_MS * 3);
    expect(h.sent).toEqual(["smriti:ready"]);
  });
});
