// The Hono app: one loop mounts every row of the route table behind bearer auth; the service's own routes beside them.
import { Hono, type Context } from "hono";
import { AppError, toAppError, validationError } from "../../contract/errors.ts";
import { streamEventList } from "../../contract/events.ts";
import type { Operation, Route, StreamMessage, StreamOperation } from "../../contract/route.ts";
import { routes, type RouteId } from "../../contract/routes.ts";
import { requireScope } from "../../services/auth.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { Runtime } from "../../runtime.ts";
import { errorResponse } from "./errors.ts";
import { openApiDocument } from "./openapi.ts";
import { readJson } from "./read-json.ts";
import { lastEventId, sse } from "./sse.ts";
import type { TokenLimiter } from "../../services/token-limits.ts";

type Env = { Variables: { call: CallContext; errorCode?: string } };
/** Methods a client may send to a path of the table (HEAD is left to Hono, which answers it from GET). */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
type JsonHandler = (call: CallContext, input: unknown) => Promise<unknown>;
type StreamHandler = (
  call: CallContext,
  input: unknown,
  lastEventId: string | null,
  signal: AbortSignal,
  path: Record<string, string>,
) => Promise<AsyncIterable<StreamMessage>>;

/**
 * `limiter`: per-token request rate and open streams (`smriti serve` passes one; in-process apps have none).
 * `authenticated`: told the path of each request whose token passed (`smriti serve` starts its session process on one).
 */
export function createHttpApp(
  runtime: Runtime,
  extra?: (app: Hono<Env>) => void,
  limiter?: TokenLimiter,
  authenticated?: (path: string) => void,
): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((err, c) => errorResponse(c, toAppError(err, runtime.log)));
  app.notFound((c) => errorResponse(c, new AppError("route_not_found", `no route ${c.req.method} ${c.req.path}`)));

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    // The matched template (e.g. /v1/decisions/:ref), so ids never become label values; unmatched paths share one label.
    const code = c.get("errorCode");
    const route = code === "route_not_found" ? "(unmatched)" : c.req.routePath;
    runtime.metrics.httpDuration.observe(
      { method: c.req.method, route, status: String(c.res.status) },
      (performance.now() - started) / 1000,
    );
    if (code) runtime.metrics.httpErrors.inc({ method: c.req.method, route, code });
  });
  app.get(routes.healthz.path, (c) => c.json({ status: "ok", version: runtime.version }));
  app.get(routes.stream_events.path, (c) => c.json({ events: streamEventList() }));
  app.get(routes.metrics.path, async (c) =>
    c.text(await runtime.metrics.registry.metrics(), 200, { "content-type": runtime.metrics.registry.contentType }),
  );
  const openapi = openApiDocument(runtime.version);
  app.get(routes.openapi.path, (c) => c.json(openapi));

  // One bearer check for every authenticated prefix of the table, so an unknown path under it is 401 before 404.
  for (const prefix of authenticatedPrefixes())
    app.use(prefix, async (c, next) => {
      const call = await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id"));
      limiter?.take(call.tokenId);
      authenticated?.(c.req.path);
      c.set("call", call);
      await next();
    });

  const allowed = allowedMethods();
  // A static path answers 405 to another method before a parameterised route can take it as an id
  // (GET /v1/decisions/extract is POST-only, not GET /v1/decisions/{ref} with ref "extract"). Registered for the
  // wrong methods only, so a request with the right one passes no extra handler.
  for (const [path, methods] of allowed) {
    const wrong = METHODS.filter((m) => !methods.has(m));
    if (!path.includes(":") && wrong.length) app.on(wrong, path, (c) => notAllowed(c, path, methods));
  }

  for (const [id, row] of Object.entries(routes) as [RouteId, Route][]) {
    if (row.kind === "service") continue;
    // The row's scope, before its input is read: a token without it learns nothing from validation errors.
    app.on(row.method, honoPath(row.path), async (c, next) => {
      requireScope(c.get("call"), row.scope);
      await next();
    });
    if (row.kind === "stream")
      mountStream(app, row, runtime.streams[id as keyof Runtime["streams"]] as StreamHandler, limiter);
    else mountJson(app, row, runtime.handlers[id as keyof Runtime["handlers"]] as JsonHandler);
  }
  extra?.(app);
  for (const [path, methods] of allowed) app.all(path, (c) => notAllowed(c, path, methods));
  return app;
}

/** Each path of the table (Hono's spelling) with the methods it answers. */
function allowedMethods(): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const row of Object.values(routes) as Route[])
    if (row.kind !== "service")
      allowed.set(honoPath(row.path), (allowed.get(honoPath(row.path)) ?? new Set()).add(row.method));
  return allowed;
}

/** A known path with another method is 405 with Allow, not 404: the client has the right URL, wrong verb. */
function notAllowed(c: Context<Env>, path: string, methods: ReadonlySet<string>): never {
  c.header("Allow", [...methods].join(", "));
  throw new AppError(
    "method_not_allowed",
    `${c.req.method} is not allowed on ${path}; use ${[...methods].join(" or ")}`,
  );
}

function mountJson(app: Hono<Env>, row: Operation, handler: JsonHandler): void {
  app.on(row.method, honoPath(row.path), async (c) => c.json(await handler(c.get("call"), await inputOf(c, row))));
}

/**
 * A resuming client (Last-Event-ID) continues its stream (a GET's parameters are still validated; a POST's body is not
 * sent again); a new one is validated before the stream opens, so bad input is a plain 4xx.
 */
function mountStream(
  app: Hono<Env>,
  row: StreamOperation,
  handler: StreamHandler,
  limiter: TokenLimiter | undefined,
): void {
  app.on(row.method, honoPath(row.path), async (c) => {
    const resume = lastEventId(c);
    const gone = new AbortController();
    const input = resume && row.method === "POST" ? null : await inputOf(c, row);
    const call = c.get("call");
    const release = limiter?.openStream(call.tokenId);
    try {
      return sse(c, await handler(call, input, resume, gone.signal, c.req.param()), {
        onAbort: () => gone.abort(),
        onClose: release,
      });
    } catch (err) {
      release?.(); // the stream never opened
      throw err;
    }
  });
}

/** Path parameters join the query of a GET and the body of a POST (a body must be a JSON object then). */
async function inputOf(c: Context<Env>, row: Operation | StreamOperation): Promise<unknown> {
  const params = c.req.param();
  let input: unknown;
  if (row.method === "GET") input = { ...c.req.query(), ...params };
  else {
    input = await readJson(c);
    if (Object.keys(params).length && typeof input === "object" && input !== null && !Array.isArray(input))
      input = { ...input, ...params };
  }
  const parsed = row.input.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** `/v1/*`, `/sdk/cognitive/*`: the common prefix of the table-driven rows under each first segment (the service's own routes check for themselves). */
function authenticatedPrefixes(): string[] {
  const groups = new Map<string, string[][]>();
  for (const row of Object.values(routes) as Route[]) {
    if (row.kind === "service") continue;
    const segments = row.path.split("/").slice(1);
    groups.set(segments[0]!, [...(groups.get(segments[0]!) ?? []), segments]);
  }
  return [...groups.values()].map((paths) => {
    const first = paths[0]!;
    let n = 0;
    // `/a/b/*` also matches `/a/b` itself, so a path may end where the prefix does (GET /sessions beside /sessions/{id}).
    while (n < first.length && !first[n]!.startsWith("{") && paths.every((p) => n < p.length && p[n] === first[n])) n++;
    return `/${first.slice(0, n).join("/")}/*`;
  });
}

/** Hono writes path parameters as `:name`; the route table uses OpenAPI's `{name}`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
