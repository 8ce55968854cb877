// The session process's public face: what `smriti serve` (cli/serve.ts, cli/serve-workers.ts) and the HTTP listener
// (transports/http/serve.ts) use of the process that runs sessions beside the server. Everything that forks, talks IPC,
// sets priorities and hands connections over lives in this folder; the rest of it is private to it.
import { lowerPriority, takeIdlePolicy } from "./cpu-priority.ts";

/** Append notices between processes on one store: a worker group's, and the session process's side of its pair. */
export { isAppended, sessionProcessNotices, workerNotices } from "./append-notices.ts";
/** The listening socket that hands session connections over, and serving one that was handed over. */
export { acceptConnection, frontDoor, type Divert } from "./front-door.ts";
export { restartDelayMs, STOP_GRACE_MS } from "./restart.ts";
/** The serving process's side: starts the session process, hands it session routes, restarts it. */
export { isSessionProcess, sessionProcess, type SessionProcess } from "./serving-side.ts";
/** The session process's side: takes connections and queued sessions, leaves when idle, goes with its parent. */
export { goWithServingProcess, serveForServingProcess } from "./session-side.ts";

/** The session process's CPU priority lowered as configured (SMRITI_SESSION_NICE, SMRITI_SESSION_SCHED_IDLE); what it has after, for the log. */
export function lowerSessionPriority(nice: number, idlePolicy: boolean): string {
  const at = `at nice ${lowerPriority(nice)} (SMRITI_SESSION_NICE)`;
  if (!idlePolicy) return at;
  return `${at}, ${takeIdlePolicy() ? "SCHED_IDLE" : "not SCHED_IDLE (no chrt, or refused)"} (SMRITI_SESSION_SCHED_IDLE)`;
}
