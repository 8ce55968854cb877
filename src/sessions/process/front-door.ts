// The listening socket of a server that hands some connections to another process: it reads each connection's first
// request line and either passes the socket on whole (the bytes read so far travel with it) or serves it here. A
// connection keeps the process it was given for all its requests; either process answers any route.
import type { Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";

/** Bytes a request line may take before the connection is served here without a decision (the parser answers it). */
const MAX_LINE_BYTES = 16 * 1024;
/** A connection whose request line is not complete by then is served here, under the parser's own timeouts. */
const LINE_WAIT_MS = 2_000;

/** Takes the connection (its socket and the bytes read of it) and returns true, or returns false to leave it here. */
export type Handoff = (socket: Socket, head: Buffer) => boolean;
/** The handoff for a connection whose first request is for `path` (no query), or null to serve it here. */
export type Divert = (path: string) => Handoff | null;

export function frontDoor(local: HttpServer, divert: Divert): Server {
  return createServer((socket) => {
    let head: Buffer = Buffer.alloc(0);
    const settle = (handoff: Handoff | null) => {
      socket.off("data", onData);
      socket.off("end", serveHere);
      socket.off("error", onError);
      socket.off("timeout", serveHere);
      socket.setTimeout(0);
      socket.pause();
      if (handoff) {
        // Nothing more may be read here: the socket's next bytes are the other process's to read.
        (socket as unknown as { _handle?: { readStop?(): number; reading?: boolean } })._handle?.readStop?.();
        if (handoff(socket, head)) return;
      }
      acceptConnection(local, socket, head);
    };
    const serveHere = () => settle(null);
    const onError = () => socket.destroy();
    const onData = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const eol = head.indexOf(0x0a);
      if (eol < 0 && head.length < MAX_LINE_BYTES) return;
      const target = head.subarray(0, Math.max(0, eol)).toString("latin1").trim().split(" ")[1] ?? "";
      settle(eol < 0 ? null : divert(target.split("?")[0] ?? ""));
    };
    socket.on("data", onData);
    socket.once("end", serveHere);
    socket.on("error", onError);
    socket.on("timeout", serveHere);
    socket.setTimeout(LINE_WAIT_MS);
  });
}

/** Serves a connection on `server` whose first bytes were already read (here, or by the process that passed it on). */
export function acceptConnection(server: HttpServer, socket: Socket, head: Buffer): void {
  server.emit("connection", socket);
  if (head.length > 0) socket.emit("data", head);
  socket.resume();
}
