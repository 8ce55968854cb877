// `smriti serve`'s session process (SMRITI_SESSION_PROCESS=1): a second `smriti serve` process on the store, started by
// the serving one, that is handed every connection whose first request is a session route (chat turns, approvals,
// background runs, their streams). Their harness, tool calls and event appends then run in a process of their own, not
// between the serving process's recalls, and at a lower CPU priority (SMRITI_SESSION_NICE, set by serve.ts): recall
// p50 while turns ran back to back at 10k measured 1.13-1.24x of idle this way against 1.31-1.60x with the turns in
// the serving process (0.95-1.11x with the chat client off the two cores too). Like a worker of `--workers` it is a
// replica: its own connection, indexes and limits; appends told across by IPC.
import { fork, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { sessionRouteIds, routes } from "../contract/routes.ts";
import type { AppendNotices } from "../ports/event-log.ts";
import type { Divert, Handoff } from "../transports/http/front-door.ts";
import { isMessage, pairedNotices } from "./append-notices.ts";
import { restartDelayMs, STOP_GRACE_MS } from "./serve-workers.ts";

const ROLE_ENV = "SMRITI_SERVE_ROLE";
const READY = "smriti:ready";
const CONNECTION = "smriti:connection";

interface Connection {
  type: typeof CONNECTION;
  /** What the serving process read of the connection before handing it over (base64). */
  head: string;
}

const isConnection = isMessage<Connection>(CONNECTION);
const isReady = isMessage<{ type: typeof READY }>(READY);

/** True in the process `sessionProcess` started. */
export function isSessionProcess(): boolean {
  return process.env[ROLE_ENV] === "sessions" && typeof process.send === "function";
}

export interface SessionProcess {
  /** Its appends, heard, and ours, told: the serving runtime's notices. */
  notices: AppendNotices;
  /** Session routes go to the session process once it is ready; until then, and while it restarts, they are served here. */
  divert: Divert;
  /** Starts it (after the serving runtime opened the store: migrations run once). */
  start(): void;
  /** Settles when the first one started is ready or has exited (its routes are then served here until another is). */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

export function sessionProcess(log: (msg: string) => void): SessionProcess {
  let child: ChildProcess | null = null;
  let ready = false;
  let closing = false;
  let failedStarts = 0;
  let settleStart = () => {};
  const started = new Promise<void>((resolve) => (settleStart = resolve));
  const notices = pairedNotices((m) => ready && child?.connected && child.send(m, undefined, {}, () => {}));
  const sessionPaths = [...sessionRouteIds].map((id) => new RegExp(`^${routes[id].path.replace(/\{\w+\}/g, "[^/]+")}/?$`));

  const handoff: Handoff = (socket: Socket, head: Buffer) => {
    const to = child;
    if (!to?.connected) return false;
    // On failure the socket is already the child's to close (keepOpen false): all that is left is to drop it.
    to.send({ type: CONNECTION, head: head.toString("base64") } satisfies Connection, socket, { keepOpen: false }, (err) => err && socket.destroy());
    return true;
  };

  const start = () => {
    const c = fork(process.argv[1]!, process.argv.slice(2), { env: { ...process.env, [ROLE_ENV]: "sessions" }, execArgv: process.execArgv });
    child = c;
    ready = false;
    c.on("message", (m) => {
      if (!isReady(m)) return notices.hear(m);
      ready = true;
      failedStarts = 0;
      notices.meet();
      log(`session routes: answered by process ${c.pid}`);
      settleStart();
    });
    c.on("error", (err) => log(`session process: ${err.message}`)); // a send to one that just died; its exit follows
    c.on("exit", (code, signal) => {
      const served = ready;
      [child, ready] = [null, false];
      settleStart();
      if (closing) return;
      if (!served) failedStarts++;
      const wait = restartDelayMs(failedStarts); // counts the ones that died before they were ready
      log(`session process exited ${signal ? `by ${signal}` : `with code ${code}`}; session routes served here, another starts in ${wait / 1000} s`);
      setTimeout(() => !closing && start(), wait).unref();
    });
  };

  return {
    notices,
    divert: (path) => (ready && sessionPaths.some((p) => p.test(path)) ? handoff : null),
    start,
    started,
    async close() {
      closing = true;
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((done) => c.once("exit", done));
      c.kill("SIGTERM");
      const timer = setTimeout(() => c.kill("SIGKILL"), STOP_GRACE_MS).unref();
      await exited;
      clearTimeout(timer);
    },
  };
}

/** In the session process: tells the serving process it is ready, and passes each connection it is handed to `accept`. */
export function takeConnections(accept: (socket: Socket, head: Buffer) => void): void {
  process.on("message", (m, socket) => {
    if (isConnection(m) && socket) accept(socket as Socket, Buffer.from(m.head, "base64"));
  });
  process.send?.({ type: READY });
}
