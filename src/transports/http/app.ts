// The Hono app: one loop mounts every operation of the table behind bearer auth, plus health and OpenAPI.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError, toAppError, validationError } from "../../contract/errors.ts";
import { limits } from "../../contract/limits.ts";
import { GroundedAnswerRequest } from "../../contract/grounded.ts";
import { operations, type OperationId } from "../../contract/operations.ts";
import type { CallContext } from "../../services/context.ts";
import type { Runtime } from "../../runtime.ts";
import { errorResponse } from "./errors.ts";
import { openApiDocument } from "./openapi.ts";
import { groundedStream } from "./grounded-stream.ts";
import { readJson } from "./read-json.ts";
import { mountCognitiveRoutes } from "./cognitive-routes.ts";

type Env = { Variables: { call: CallContext; errorCode?: string } };

export function createHttpApp(runtime: Runtime, extra?: (app: Hono<Env>) => void): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((err, c) => errorResponse(c, toAppError(err, runtime.log)));
  app.notFound((c) => errorResponse(c, new AppError("route_not_found", `no route ${c.req.method} ${c.req.path}`)));

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    // The matched template (e.g. /v1/decisions/:ref), so ids never become label values; unmatched paths share one label.
    const code = c.get("errorCode");
    const route = code === "route_not_found" ? "(unmatched)" : c.req.routePath;
    runtime.metrics.httpDuration.observe({ method: c.req.method, route, status: String(c.res.status) }, (performance.now() - started) / 1000);
    if (code) runtime.metrics.httpErrors.inc({ method: c.req.method, route, code });
  });
  app.get("/healthz", (c) => c.json({ status: "ok", version: runtime.version }));
  app.get("/metrics", async (c) => c.text(await runtime.metrics.registry.metrics(), 200, { "content-type": runtime.metrics.registry.contentType }));
  const openapi = openApiDocument(runtime.version);
  app.get("/v1/openapi.json", (c) => c.json(openapi));

  app.use(
    "*",
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: () => {
        throw new AppError("payload_too_large", `request body exceeds ${limits.maxBodyBytes} bytes`);
      },
    }),
  );
  app.use("/v1/*", async (c, next) => {
    c.set("call", await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id")));
    await next();
  });

  for (const id of Object.keys(operations) as OperationId[]) {
    const op = operations[id];
    const handler = runtime.handlers[id] as (call: CallContext, input: unknown) => Promise<unknown>;
    app.on(op.method, honoPath(op.path), async (c) => {
      // Path parameters join the query of a GET; no POST of the table has any, so a body is validated exactly as sent.
      const parsed = op.input.safeParse(op.method === "GET" ? { ...c.req.query(), ...c.req.param() } : await readJson(c));
      if (!parsed.success) throw validationError(parsed.error);
      return c.json(await handler(c.get("call"), parsed.data));
    });
  }
  app.post("/v1/grounded/answer/stream", async (c) => {
    // A resuming client replays from the log; a new run is validated before the stream opens, so bad input is a plain 4xx.
    if (c.req.header("last-event-id")) return groundedStream(c, c.get("call"), null, runtime.grounded, runtime.audit, runtime.log);
    const parsed = GroundedAnswerRequest.safeParse(await readJson(c));
    if (!parsed.success) throw validationError(parsed.error);
    return groundedStream(c, c.get("call"), parsed.data, runtime.grounded, runtime.audit, runtime.log);
  });
  mountCognitiveRoutes(app, runtime);
  extra?.(app);
  // A known path with another method is 405 with Allow, not 404: the client has the right URL, wrong verb.
  const allowed = new Map<string, Set<string>>([["/v1/grounded/answer/stream", new Set(["POST"])]]);
  for (const op of Object.values(operations)) allowed.set(honoPath(op.path), (allowed.get(honoPath(op.path)) ?? new Set()).add(op.method));
  for (const [path, methods] of allowed)
    app.all(path, (c) => {
      c.header("Allow", [...methods].join(", "));
      throw new AppError("method_not_allowed", `${c.req.method} is not allowed on ${path}; use ${[...methods].join(" or ")}`);
    });
  return app;
}

/** Hono writes path parameters as `:name`; the operation table uses OpenAPI's `{name}`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
