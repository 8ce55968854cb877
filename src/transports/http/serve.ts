// Starts the HTTP listener for an app and closes it cleanly.
import { serve } from "@hono/node-server";
import { STATUS_CODES } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { AppError, errorBody, type ErrorCode } from "../../contract/errors.ts";

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** How long closing waits for requests under way before it cuts every connection. */
const CLOSE_GRACE_MS = 2_000;

/** `headersTimeoutMs`: how long a connection may take to send its request headers before it is closed (slowloris). */
export function listen(app: { fetch: (request: Request) => Response | Promise<Response> }, host: string, port: number, opts: { headersTimeoutMs?: number } = {}): Promise<RunningServer> {
  const headersTimeout = opts.headersTimeoutMs ?? 60_000;
  // Node checks the timeouts on this interval: a slow client is closed within the timeout plus one interval.
  const serverOptions = { headersTimeout, requestTimeout: Math.max(60_000, headersTimeout), connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
  return new Promise((resolveListen, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port, serverOptions }, (info: AddressInfo) => {
      resolveListen({
        port: info.port,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            // Requests under way get a moment to finish; event streams never would, so they are cut (clients resume
            // with Last-Event-ID, here after a restart or on another replica).
            setTimeout(() => (server as { closeAllConnections?: () => void }).closeAllConnections?.(), CLOSE_GRACE_MS).unref();
          }),
      });
    });
    server.once("error", reject);
    server.on("clientError", answerClientError);
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
