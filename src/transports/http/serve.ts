// Starts the HTTP listener for an app and closes it cleanly.
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export function listen(app: { fetch: (request: Request) => Response | Promise<Response> }, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolveListen, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      resolveListen({
        port: info.port,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
    server.once("error", reject);
  });
}
