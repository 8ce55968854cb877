// A thread for the pool's tests: echoes in capitals, refuses "refuse", and ends its own thread on "die".
import { serveThread } from "../../src/threads/pool.ts";

serveThread<string, string>(async (body) => {
  if (body === "refuse") throw new Error("refused by the handler");
  if (body === "die") process.exit(3); // in a worker thread: ends the thread, not the test process
  return { body: body.toUpperCase() };
});
