// A real service on an ephemeral port with the console mounted, whose open connections a test can cut (a network drop).
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createClient, type SmritiClient } from "../../src/client/index.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { mountConsole } from "../../src/transports/http/console.ts";
import { startTestService, type TestService, type TestServiceOptions } from "./runtime.ts";

export interface ConsoleService {
  svc: TestService;
  url: string;
  client: SmritiClient;
  /** Closes every open connection at once, streams included; the server keeps listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startConsoleService(opts: TestServiceOptions = {}): Promise<ConsoleService> {
  const svc = await startTestService(opts);
  const app = createHttpApp(svc.runtime, (a) => mountConsole(a, svc.config.consoleDir));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    svc,
    url,
    client: createClient({ baseUrl: url, token: svc.token }),
    dropConnections: () => (server as Server).closeAllConnections(),
    async close() {
      (server as Server).closeAllConnections();
      await new Promise((done) => server.close(() => done(undefined)));
      await svc.cleanup();
    },
  };
}
