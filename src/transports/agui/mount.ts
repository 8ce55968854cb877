// POST /agui: an AG-UI endpoint over the chat sessions, behind the same bearer auth and scopes as the route table's rows.
import { EventEncoder } from "@ag-ui/encoder";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { Env, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { stream } from "hono/streaming";
import { AppError, bodyTooLarge, validationError } from "../../contract/errors.ts";
import { limits } from "../../contract/limits.ts";
import { routes } from "../../contract/routes.ts";
import type { Runtime } from "../../runtime.ts";
import { requireScope } from "../../services/auth.ts";
import type { TokenLimiter } from "../../services/token-limits.ts";
import { aguiRun } from "./run.ts";

const row = routes.agui_run;

/** Mounts the AG-UI run route; auth, scope and input are checked before the stream opens, so they are plain 4xx. */
export function mountAgui<E extends Env>(app: Hono<E>, runtime: Runtime, limiter?: TokenLimiter): void {
  // As for /mcp: the body limit stands in front of the route, which reads its body itself.
  app.use(
    row.path,
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: () => {
        throw bodyTooLarge();
      },
    }),
  );
  app.post(row.path, async (c) => {
    const call = await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id"));
    limiter?.take(call.tokenId);
    requireScope(call, row.scope);
    const body = await c.req.json<unknown>().catch(() => {
      throw new AppError("malformed_json", "the body is not a JSON RunAgentInput");
    });
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error);
    const encoder = new EventEncoder({ accept: c.req.header("accept") ?? "text/event-stream" });
    const gone = new AbortController();
    const release = limiter?.openStream(call.tokenId);
    c.header("content-type", encoder.getContentType());
    c.header("cache-control", "no-cache");
    return stream(c, async (out) => {
      out.onAbort(() => gone.abort());
      try {
        for await (const event of aguiRun(runtime, call, parsed.data, gone.signal)) {
          if (out.aborted) break;
          await out.write(encoder.encodeBinary(event));
        }
      } finally {
        release?.();
      }
    });
  });
}
