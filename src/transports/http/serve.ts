// Starts the HTTP listener for an app and closes it cleanly.
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

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
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
    server.once("error", reject);
  });
}
