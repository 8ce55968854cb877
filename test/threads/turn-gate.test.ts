// Slices through a TurnGate (src/threads/turn-gate.ts) run after the loop has read the requests that arrived before
// them, back to back only while the turn's budget lasts, one at a time.
import { describe, expect, it } from "vitest";
import { TurnGate } from "../../src/threads/turn-gate.ts";
import { orderAgainstRead } from "../helpers/socket-pair.ts";

/** Queues four slices at once; the first schedules a callback for the loop's next turn. */
async function fourSlices(gate: TurnGate): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(
    ["s1", "s2", "s3", "s4"].map((name) =>
      gate.run(async () => {
        if (name === "s1") setImmediate(() => order.push("next turn"));
        order.push(name);
      }),
    ),
  );
  await new Promise(setImmediate);
  return order;
}

describe("TurnGate", () => {
  it("runs a slice only after the loop has read what arrived before it (a request goes first)", async () => {
    const gate = new TurnGate();
    expect(await orderAgainstRead((mark) => gate.run(async () => mark("slice")))).toEqual(["second", "slice", "done"]);
  });

  it("runs queued slices back to back while the budget lasts", async () => {
    expect(await fourSlices(new TurnGate(60_000))).toEqual(["s1", "s2", "s3", "s4", "next turn"]);
  });

  it("gives the loop back once the budget is spent", async () => {
    expect(await fourSlices(new TurnGate(0))).toEqual(["s1", "next turn", "s2", "s3", "s4"]);
  });

  it("runs one slice at a time across its awaits, and a failing slice fails only its caller", async () => {
    const gate = new TurnGate();
    let running = 0;
    let most = 0;
    const slice = (fail: boolean) => async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      if (fail) throw new Error("bad slice");
      return "ok";
    };
    const results = await Promise.allSettled([false, true, false, false].map((fail) => gate.run(slice(fail))));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(most).toBe(1);
  });
});
