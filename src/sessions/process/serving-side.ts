// `smriti serve`'s session process: a second `smriti serve` process on the store, started by the serving one, that is
// handed every connection whose first request is a session route (chat turns, approvals, background runs, their
// streams). Their harness, tool calls and event appends then run in a process of their own, not between the serving
// process's recalls, and at a lower CPU priority (SMRITI_SESSION_NICE, SCHED_IDLE; set by serve.ts), so recalls keep
// their pace while turns run (bench/README.md has the figures).
// By default it is started on demand (the first session request, a background session to run) and stops after
// SMRITI_SESSION_IDLE_MS with nothing to do, as it holds a second copy of the indexes. Like a worker of `--workers` it
// is a replica: its own connection, indexes and limits; appends told across by IPC.
import { fork, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { routes, sessionRouteIds } from "../../contract/routes.ts";
import type { AppendNotices } from "../../ports/event-log.ts";
import type { Divert, Handoff } from "./front-door.ts";
import { pairedNotices } from "./append-notices.ts";
import { dyingWithParent } from "./parent-death.ts";
import { restartDelayMs, STOP_GRACE_MS } from "./restart.ts";
import { CONNECTION, isLeaving, isReady, LEFT, QUEUED, ROLE_ENV, type Connection, type Queued } from "./ipc.ts";

/** True in the process `sessionProcess` started. */
export function isSessionProcess(): boolean {
  return process.env[ROLE_ENV] === "sessions" && typeof process.send === "function";
}

export interface SessionProcessOptions {
  /** Start it when it is needed and let it stop when idle (true), or keep one from start to stop. */
  onDemand: boolean;
  /** Whether a background session waits for a process to run it (asked at start and, while none runs, every `pollMs`). */
  waiting(): Promise<boolean>;
  pollMs: number;
  log(msg: string): void;
}

export interface SessionProcess {
  /** Its appends, heard, and ours, told: the serving runtime's notices. */
  notices: AppendNotices;
  /** Session routes go to the session process once it is ready; until then, and while it restarts, they are served here. */
  divert: Divert;
  /**
   * Whether the connection of a request for `path` served here closes after the answer: a session route's does, so the
   * client's next request comes through the front door and reaches the session process.
   */
  servedHere(path: string): boolean;
  /** A session request served here passed authentication: the session process is started if none runs. */
  wanted(): void;
  /** A background session queued here: the session process runs it now (started for it when none runs). */
  queued(workspaceId: string, sessionId: string): void;
  /** Starts it, or on demand its watch (after the serving runtime opened the store: migrations run once). */
  start(): void;
  /** Settles when the first one is ready or has exited; on demand at once (the serving process answers until it is). */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

export function sessionProcess(opts: SessionProcessOptions): SessionProcess {
  const { log } = opts;
  let child: ChildProcess | null = null;
  let ready = false;
  /** It said it is leaving: nothing is handed to it, and another starts when it has gone if `wanted`. */
  let leaving = false;
  let wanted = false;
  let restart: NodeJS.Timeout | null = null;
  let closing = false;
  let failedStarts = 0;
  let settleStart = () => {};
  const started = new Promise<void>((resolve) => (settleStart = resolve));
  const notices = pairedNotices((m) => ready && child?.connected && child.send(m, undefined, {}, () => {}));
  const sessionPaths = [...sessionRouteIds].map(
    (id) => new RegExp(`^${routes[id].path.replace(/\{\w+\}/g, "[^/]+")}/?$`),
  );
  // Asked of every request served here, recalls too: their first segment (/v1) settles it without the patterns.
  const sessionRoots = new Set([...sessionRouteIds].map((id) => routes[id].path.split("/")[1]));
  const isSessionPath = (path: string) =>
    sessionRoots.has(path.split("/", 2)[1] ?? "") && sessionPaths.some((p) => p.test(path));
  /** Background sessions queued here before it was ready: it is told when it is. */
  const queued: Queued[] = [];

  const handoff: Handoff = (socket: Socket, head: Buffer) => {
    const to = child;
    if (!to?.connected) return false;
    // On failure the socket is already the child's to close (keepOpen false): all that is left is to drop it.
    to.send(
      { type: CONNECTION, head: head.toString("base64") } satisfies Connection,
      socket,
      { keepOpen: false },
      (err) => err && socket.destroy(),
    );
    return true;
  };

  const spawn = () => {
    // The kernel kills it with this process (setpriv's death signal); its watch of the channel covers hosts without setpriv.
    const c = fork(process.argv[1]!, process.argv.slice(2), {
      env: { ...process.env, [ROLE_ENV]: "sessions" },
      ...dyingWithParent(process.execArgv),
    });
    const startedAt = performance.now();
    [child, ready, leaving, wanted] = [c, false, false, false];
    let met = false;
    let hung: NodeJS.Timeout | null = null;
    c.on("message", (m) => {
      if (isLeaving(m)) {
        [ready, leaving] = [false, true];
        // One that neither goes nor stays (its stop hangs) is killed: the sessions waiting on it start another.
        hung = setTimeout(() => c.kill("SIGKILL"), STOP_GRACE_MS).unref();
        return void (c.connected && c.send({ type: LEFT }, undefined, {}, () => {}));
      }
      if (!isReady(m)) return notices.hear(m);
      if (hung) clearTimeout(hung);
      [ready, leaving, wanted, failedStarts] = [true, false, false, 0];
      if (!met) {
        met = true;
        log(`session routes: answered by process ${c.pid} (ready in ${Math.round(performance.now() - startedAt)} ms)`);
        notices.meet();
      }
      for (const q of queued.splice(0)) c.send(q, undefined, {}, () => {});
      settleStart();
    });
    c.on("error", (err) => log(`session process: ${err.message}`)); // a send to one that just died; its exit follows
    c.on("exit", (code, signal) => {
      const [served, left] = [ready || leaving, leaving];
      [child, ready, leaving] = [null, false, false];
      if (hung) clearTimeout(hung);
      notices.forget(); // what it followed; the next one's follows arrive from its start on
      settleStart();
      if (closing) return;
      if (left) {
        const how = code === 0 ? "stopped, idle" : `stopped, idle, ${signal ? `by ${signal}` : `with code ${code}`}`;
        log(`session process ${c.pid} ${how}; session routes served here until it is needed again`);
        if (wanted) spawn();
        else lookForRuns(); // one queued meanwhile by a CLI
        return;
      }
      if (!served) failedStarts++;
      const wait = restartDelayMs(failedStarts); // counts the ones that died before they were ready
      log(
        `session process exited ${signal ? `by ${signal}` : `with code ${code}`}; session routes served here, another starts in ${wait / 1000} s`,
      );
      restart = setTimeout(() => {
        restart = null;
        if (!closing) spawn();
      }, wait).unref();
    });
  };

  /** Makes sure one runs or is on its way. */
  const wake = () => {
    if (closing || restart) return;
    if (!child) spawn();
    else if (leaving) wanted = true;
  };

  /** Wakes one for background sessions waiting to run (a CLI queued them, or the last stop cut them off). */
  const lookForRuns = () =>
    void opts.waiting().then(
      (yes) => yes && wake(),
      (err: unknown) =>
        log(`session process: could not look for background sessions to run: ${(err as Error).message}`),
    );

  return {
    notices,
    divert: (path) => (ready && isSessionPath(path) ? handoff : null),
    servedHere: (path) => !closing && isSessionPath(path),
    wanted: wake,
    queued(workspaceId, sessionId) {
      const message: Queued = { type: QUEUED, workspaceId, sessionId };
      if (ready && child?.connected) return void child.send(message, undefined, {}, () => {});
      queued.push(message);
      wake();
    },
    start() {
      if (!opts.onDemand) return spawn();
      settleStart(); // the serving process answers session routes until it is ready
      lookForRuns();
      const poll = setInterval(
        () => (closing ? clearInterval(poll) : !child && !restart && lookForRuns()),
        opts.pollMs,
      ).unref();
    },
    started,
    async close() {
      closing = true;
      if (restart) clearTimeout(restart);
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
