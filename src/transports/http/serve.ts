// Starts the HTTP listener for an app and closes it cleanly.
import { createAdaptorServer } from "@hono/node-server";
import { STATUS_CODES, type Server as HttpServer } from "node:http";
import type { AddressInfo, Server, Socket } from "node:net";
import { AppError, errorBody, type ErrorCode } from "../../contract/errors.ts";
import { acceptConnection, frontDoor, type Divert } from "../../sessions/process/index.ts";

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** How long closing waits for requests under way before it cuts every connection. */
const CLOSE_GRACE_MS = 2_000;

type FetchApp = { fetch: (request: Request) => Response | Promise<Response> };

export interface ServeOptions {
  /** How long a connection may take to send its request headers before it is closed (slowloris). */
  headersTimeoutMs?: number;
  /** Connections to pass to another process, decided from their first request line (sessions/process/front-door.ts). */
  divert?: Divert | undefined;
  /** Whether the connection of a request for `path` (no query) served here closes after the answer. */
  closeAfter?: ((path: string) => boolean) | undefined;
}

export function listen(app: FetchApp, host: string, port: number, opts: ServeOptions = {}): Promise<RunningServer> {
  const http = httpServer(app, host, opts);
  const door: Server = opts.divert ? frontDoor(http, opts.divert) : http;
  return new Promise((resolveListen, reject) => {
    door.once("error", reject);
    door.listen(port, host, () => {
      // The parser gets its connections from the front door: its timeout checks start as they would on listening.
      if (door !== http) http.emit("listening");
      const info = door.address() as AddressInfo;
      resolveListen({
        port: info.port,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`,
        close: () => closeServer(door, http),
      });
    });
  });
}

/** The app served on connections another process's front door passed on (`accept`); it listens on nothing itself. */
export function acceptingServer(
  app: FetchApp,
  host: string,
  opts: ServeOptions = {},
): { accept(socket: Socket, head: Buffer): void; close(): Promise<void> } {
  const http = httpServer(app, host, opts);
  http.emit("listening"); // starts the parser's timeout checks, as listening would
  return { accept: (socket, head) => acceptConnection(http, socket, head), close: () => closeServer(null, http) };
}

/** The app's HTTP server, not yet listening: Node's timeouts, and the error envelope for what its parser refuses. */
function httpServer(app: FetchApp, host: string, opts: ServeOptions): HttpServer {
  const headersTimeout = opts.headersTimeoutMs ?? 60_000;
  // Node checks the timeouts on this interval: a slow client is closed within the timeout plus one interval.
  const serverOptions = {
    headersTimeout,
    requestTimeout: Math.max(60_000, headersTimeout),
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host, serverOptions }) as HttpServer;
  server.on("clientError", answerClientError);
  const closeAfter = opts.closeAfter;
  if (closeAfter)
    server.prependListener(
      "request",
      (req, res) => closeAfter(req.url?.split("?")[0] ?? "") && res.setHeader("connection", "close"),
    );
  return server;
}

/** Stops taking connections; requests under way get a moment to finish, then every connection is cut. */
function closeServer(door: Server | null, http: HttpServer): Promise<void> {
  return new Promise((done) => {
    if (door && door !== http) {
      door.close(() => done());
      http.close();
    } else http.close(() => done()); // one that never listened calls back ("not running") once its connections are gone
    // Event streams never finish, so they are cut (clients resume with Last-Event-ID, here after a restart or elsewhere).
    setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS).unref();
  });
}

/** What Node's parser refuses before the app sees a request, answered with the same error envelope as the rest. */
const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ["headers_too_large", "the request line and headers exceed 16 KB"],
  ERR_HTTP_REQUEST_TIMEOUT: ["request_timeout", "the request headers did not arrive in time"],
};

function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
  const [code, message] = CLIENT_ERRORS[err.code ?? ""] ?? ["malformed_http", "the request is not valid HTTP/1.1"];
  const failure = new AppError(code, message);
  const body = JSON.stringify(errorBody(failure));
  const head = `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close`;
  socket.end(`${head}\r\n\r\n${body}`);
  // A client still sending (a slow one dripping headers) never closes its side: give it a moment to read, then let go.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
