// MCP Streamable HTTP at /mcp: stateless (a fresh server and transport per POST), behind the same bearer auth as /v1.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Env, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError, bodyTooLarge } from "../../contract/errors.ts";
import { limits } from "../../contract/limits.ts";
import type { Runtime } from "../../runtime.ts";
import type { TokenLimiter } from "../../services/token-limits.ts";
import { createMcpServer } from "./server.ts";

export const MCP_PATH = "/mcp";

/** Mounts POST /mcp (and 405s for GET/DELETE); /mcp sits outside /v1, so it authenticates here itself. Errors go to the app's onError. */
export function mountMcpHttp<E extends Env>(app: Hono<E>, runtime: Runtime, limiter?: TokenLimiter): void {
  // The table's routes count their bodies as they read them; MCP's SDK reads its own, so the limit stands in front of it.
  app.use(
    MCP_PATH,
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: () => {
        throw bodyTooLarge();
      },
    }),
  );
  app.post(MCP_PATH, async (c) => {
    const call = await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id"));
    limiter?.take(call.tokenId);
    const server = createMcpServer(runtime, call);
    // No sessionIdGenerator = stateless: any replica can answer any request, nothing to keep between calls.
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: limits.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      // With JSON responses the promise settles once every answer is in the body, so closing afterwards is safe.
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // Stateless: no server-initiated SSE stream and no session to delete; MCP allows 405 for both (Streamable HTTP, GET/DELETE).
  app.on(["GET", "DELETE"], MCP_PATH, async (c) => {
    await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id"));
    c.header("Allow", "POST");
    throw new AppError(
      "method_not_allowed",
      `${c.req.method} ${MCP_PATH} is not offered: this MCP endpoint is stateless, use POST`,
    );
  });
}
