// The messages between `smriti serve` and its session process (besides the append notices of append-notices.ts).
import { isMessage } from "./append-notices.ts";

/** The environment variable that makes a forked `smriti serve` the session process. */
export const ROLE_ENV = "SMRITI_SERVE_ROLE";

/** Session process -> serving process: hand me the session routes (sent again when it stays after `leaving`). */
export const READY = "smriti:ready";
/** Session process -> serving process: nothing to do for a while, stop handing me connections. */
export const LEAVING = "smriti:leaving";
/** Serving process -> session process: no connection is handed after this one; stop if you still have nothing to do. */
export const LEFT = "smriti:left";
/** Serving process -> session process: a connection, its socket passed along with the message. */
export const CONNECTION = "smriti:connection";
/** Serving process -> session process: a background session queued in the serving process, for it to run now. */
export const QUEUED = "smriti:queued";

export interface Connection {
  type: typeof CONNECTION;
  /** What the serving process read of the connection before handing it over (base64). */
  head: string;
}

export interface Queued {
  type: typeof QUEUED;
  workspaceId: string;
  sessionId: string;
}

export const isReady = isMessage<{ type: typeof READY }>(READY);
export const isLeaving = isMessage<{ type: typeof LEAVING }>(LEAVING);
export const isLeft = isMessage<{ type: typeof LEFT }>(LEFT);
export const isConnection = isMessage<Connection>(CONNECTION);
export const isQueued = isMessage<Queued>(QUEUED);
