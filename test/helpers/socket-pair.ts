// Two connected client sockets on a local server, for tests of what the event loop runs first: `onData` hears which
// one's bytes the server read. Closed by `close()`.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface SocketPair {
  first: Socket;
  second: Socket;
  close(): void;
}

export async function socketPair(onData: (which: "first" | "second") => void): Promise<SocketPair> {
  const open: (Server | Socket)[] = [];
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
  return { first, second, close: () => open.forEach((x) => ("destroy" in x ? x.destroy() : x.close())) };
}

/**
 * Runs `work` inside the server's read callback of the first socket, right after the second socket's bytes reached the
 * kernel, and returns what happened in order: "second" (the loop read them), "done" (the work finished) and whatever
 * the work marked on the way.
 */
export async function orderAgainstRead(work: (mark: (what: string) => void) => Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  let pair: SocketPair | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const settle = () => order.includes("second") && order.includes("done") && resolve();
      void socketPair((which) => {
        if (which === "second") return void (order.push("second"), settle());
        pair!.second.write("x");
        work((what) => order.push(what)).then(() => (order.push("done"), settle()), reject);
      }).then((p) => {
        pair = p;
        p.first.write("x");
      }, reject);
    });
  } finally {
    pair?.close();
  }
  return order;
}
