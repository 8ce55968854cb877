// Work that yields with yieldToIo resumes after the socket reads that became ready while it ran, even when it runs in
// an I/O callback (where a lone setImmediate would resume it before the loop reads its sockets again).
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { yieldToIo } from "../../src/threads/loop-yield.ts";

describe("yieldToIo", () => {
  const open: (Server | Socket)[] = [];
  afterEach(() => open.splice(0).forEach((x) => ("destroy" in x ? x.destroy() : x.close())));

  /** Two connected client sockets; `onData` gets (which, socket) on the server side. */
  async function pair(onData: (which: "first" | "second") => void): Promise<[Socket, Socket]> {
    let n = 0;
    const server = createServer((s) => {
      const which = n++ === 0 ? "first" : "second";
      s.on("data", () => onData(which));
      open.push(s);
    });
    open.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const first = connect(port, "127.0.0.1");
    await new Promise((r) => first.once("connect", r));
    const second = connect(port, "127.0.0.1");
    await new Promise((r) => second.once("connect", r));
    open.push(first, second);
    while (n < 2) await new Promise((r) => setTimeout(r, 1));
    return [first, second];
  }

  for (const [name, pause, expected] of [
    ["yieldToIo", yieldToIo, ["first", "second", "resumed"]],
    ["a lone setImmediate (the control)", () => new Promise<void>((r) => setImmediate(r)), ["first", "resumed", "second"]],
  ] as const)
    it(`${name}: a read that became ready during an I/O callback runs ${expected[1] === "second" ? "before" : "after"} the work resumes`, async () => {
      const order: string[] = [];
      let second: Socket | undefined;
      const done = new Promise<void>((resolve) => {
        void pair((which) => {
          order.push(which);
          if (which === "second") return order.length === 3 && resolve();
          // In the first socket's read callback: the second socket's bytes reach the kernel now, then the work yields.
          second!.write("x");
          void pause().then(() => {
            order.push("resumed");
            if (order.length === 3) resolve();
          });
        }).then(([first, s]) => {
          second = s;
          first.write("x");
        });
      });
      await done;
      expect(order).toEqual(expected);
    });
});
