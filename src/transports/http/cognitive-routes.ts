// GET/POST /sdk/cognitive/*: the advisory inspection routes over the layer stack (only /process writes: its trace), bearer-authenticated like /v1.
import { Hono, type Env } from "hono";
import { LAYER_IDS, LayerId } from "../../contract/cognitive-layers.ts";
import { COGNITIVE_PREFIX, CognitiveProcessRequest, CognitiveStateRequest, TraceIdParam, type CognitiveResponses } from "../../contract/cognitive.ts";
import { AppError, validationError } from "../../contract/errors.ts";
import { chittaOf, functionalStateOf, goalsOf, healthOf, identityOf, karmaOf, layersOf, layerState, snapshotOf, stateOf } from "../../services/cognitive/inspection.ts";
import { processQuery } from "../../services/cognitive/process.ts";
import { TRACES_KEPT } from "../../services/cognitive/traces.ts";
import type { CallContext } from "../../services/context.ts";
import type { Runtime } from "../../runtime.ts";
import { readJson } from "./read-json.ts";

/** First page of open loops goals shows: sankalpa's view, not a listing API (that is GET /v1/open-loops). */
const GOAL_LOOPS = 20;

export function mountCognitiveRoutes<E extends Env>(app: Hono<E>, runtime: Runtime): void {
  const sdk = new Hono<{ Variables: { call: CallContext } }>();
  const stack = runtime.cognitive;
  sdk.use("*", async (c, next) => {
    c.set("call", await runtime.auth.authenticate(c.req.header("authorization"), c.req.header("x-svc-actor-id")));
    await next();
  });
  const ws = (c: { get(key: "call"): CallContext }) => c.get("call").workspaceId;

  sdk.get("/health", async (c) => c.json(await healthOf(stack, ws(c))));
  sdk.get("/snapshot", async (c) => c.json(await snapshotOf(stack, ws(c))));
  sdk.get("/layers", async (c) => c.json({ layers: await layersOf(stack, ws(c)) }));
  sdk.get("/layers/:layer_id", async (c) => {
    const id = LayerId.safeParse(c.req.param("layer_id"));
    if (!id.success) throw new AppError("not_found", `no layer '${c.req.param("layer_id")}'`, { valid_layer_ids: [...LAYER_IDS] });
    return c.json(await layerState(stack, ws(c), id.data));
  });
  sdk.get("/state", async (c) => {
    const parsed = CognitiveStateRequest.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error);
    return c.json(await stateOf(stack, parsed.data.limit));
  });
  sdk.get("/goals", async (c) => c.json(await goalsOf(stack, ws(c), await runtime.handlers.open_loops(c.get("call"), { limit: GOAL_LOOPS }))));
  sdk.get("/karma", async (c) => c.json(await karmaOf(stack, ws(c))));
  sdk.get("/chitta", async (c) => c.json(await chittaOf(stack, ws(c))));
  sdk.get("/identity", async (c) => c.json(await identityOf(stack, c.get("call"))));
  sdk.get("/functional-state", async (c) => c.json(await functionalStateOf(stack, ws(c))));
  sdk.post("/process", async (c) => {
    const parsed = CognitiveProcessRequest.safeParse(await readJson(c));
    if (!parsed.success) throw validationError(parsed.error);
    const body: CognitiveResponses["process"] = await processQuery(runtime.grounded, runtime.traces, c.get("call"), parsed.data);
    return c.json(body);
  });
  sdk.get("/traces/:trace_id", async (c) => {
    const id = TraceIdParam.safeParse(c.req.param("trace_id"));
    // Traces are keyed by an unguessable id and stored with their workspace; another workspace's id is 404 as well.
    const trace: CognitiveResponses["trace"] | undefined = id.success ? await runtime.traces.get(id.data, ws(c)) : undefined;
    if (!trace) throw new AppError("not_found", `no trace '${c.req.param("trace_id")}' in this workspace (the newest ${TRACES_KEPT} are kept)`);
    return c.json(trace);
  });
  app.route(COGNITIVE_PREFIX, sdk);
}
