// The session process's side (serving-side.ts starts it): it serves the connections handed to it, runs the
// background sessions queued in the serving process, and when started on demand leaves after SMRITI_SESSION_IDLE_MS
// with nothing to do. Leaving is a handshake, so no connection handed over meanwhile is dropped: it says `leaving`, the
// serving process stops handing over and answers `left` after any connection already sent, and it stops only if it
// still has nothing to do then (else it says `ready` again).
import type { Socket } from "node:net";
import { isConnection, isLeft, isQueued, LEAVING, READY } from "./ipc.ts";

export interface SessionProcessSide {
  /** Serves a connection handed over (its socket and the bytes the serving process read of it). */
  accept(socket: Socket, head: Buffer): void;
  /** Runs a background session queued in the serving process. */
  enqueue(workspaceId: string, sessionId: string): void;
  /** No turn or run is live here and no background session waits to run. */
  atRest(): Promise<boolean>;
  /** Leave after this long with nothing to do (null: stay until stopped). */
  idleMs: number | null;
  /** Stops this process (the serving one goes on without it until it is needed again). */
  leave(): void;
}

/**
 * A session process outlives no serving process: when the channel closes (kill -9 of the parent; a clean stop ends
 * this process first) it goes at once, even mid-stop, so it never finishes a run alone, and its leases go stale for
 * another process to end its turns. Watched from its first moment: one still starting would otherwise run the
 * background sessions it found, with nobody to stop it. Where setpriv exists the kernel kills it sooner
 * (parent-death.ts); this is the watch for hosts without it.
 */
export function goWithServingProcess(): void {
  const go = () => process.kill(process.pid, "SIGKILL"); // no exit handlers, no pending writes: nothing more is done
  if (!process.connected) return void go();
  process.once("disconnect", go);
}

/** The IPC channel to the serving process: the process's own, or a test's. */
export interface ServingChannel {
  send(message: { type: string }): void;
  onMessage(listener: (message: unknown, handle: unknown) => void): void;
}

const processChannel: ServingChannel = {
  send: (message) => void (process.connected && process.send?.(message)),
  onMessage: (listener) => void process.on("message", listener),
};

/** Takes connections and queued sessions from the serving process, tells it this process is ready, and leaves when idle. */
export function serveForServingProcess(side: SessionProcessSide, channel: ServingChannel = processChannel): void {
  let open = 0;
  let lastBusy = performance.now();
  let asked = false;
  const send = (type: string) => channel.send({ type });
  // A store that fails to answer (closing) counts as busy: this process does not leave on a guess.
  const busy = async () => open > 0 || !(await side.atRest().catch(() => false));
  channel.onMessage((m, socket) => {
    if (isConnection(m) && socket) {
      open++;
      lastBusy = performance.now();
      (socket as Socket).once("close", () => {
        open--;
        lastBusy = performance.now();
      });
      side.accept(socket as Socket, Buffer.from(m.head, "base64"));
    } else if (isQueued(m)) side.enqueue(m.workspaceId, m.sessionId);
    else if (isLeft(m) && asked) void settleLeaving();
  });
  const settleLeaving = async () => {
    if (!(await busy())) return side.leave();
    [asked, lastBusy] = [false, performance.now()];
    send(READY);
  };
  send(READY);
  if (side.idleMs === null) return;
  const every = Math.min(5_000, Math.max(50, side.idleMs / 4));
  const idleMs = side.idleMs;
  const check = async () => {
    if (!asked) {
      if (await busy()) lastBusy = performance.now();
      else if (performance.now() - lastBusy >= idleMs) {
        asked = true;
        send(LEAVING);
      }
    }
    setTimeout(() => void check(), every).unref();
  };
  setTimeout(() => void check(), every).unref();
}
