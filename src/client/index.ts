// TypeScript client for the Smriti Memory API: one typed method per operation of the contract's table (no node: imports).
import type { ErrorBody } from "../contract/errors.ts";
import {
  fillPath,
  pathParameters,
  routes,
  type JsonRouteId,
  type RouteId,
  type RouteInput,
  type RouteOutput,
} from "../contract/routes.ts";
import { allows, type Scope } from "../contract/scopes.ts";
import type { streamEventList } from "../contract/events.ts";
import type { GroundedAnswerRequest } from "../contract/grounded.ts";
import { cognitiveCalls } from "./cognitive.ts";
import { sessionCalls } from "./sessions.ts";
import { parseSse, type SseEvent } from "./sse.ts";

export type Input<K extends JsonRouteId> = RouteInput<K>;
export type Output<K extends JsonRouteId> = RouteOutput<K>;
export type { SseEvent };
export type { SessionEvent, ResumeOptions } from "./sessions.ts";
export type { SessionEventData, SessionEventType } from "../contract/events.ts";
export type { Citation } from "../contract/citation.ts";
export type { TimeMention } from "../contract/time.ts";
export type { HealthSnapshot } from "../contract/health.ts";
/** Every status a session can have (the enum GET /sessions filters by). */
export { SessionStatus } from "../contract/background.ts";
export type { Scope } from "../contract/scopes.ts";
export type { WhoAmI } from "../contract/auth.ts";
export type { RouteId } from "../contract/routes.ts";

/** Whether a token with `granted` scopes (whoami's) may call route `id`: the same table the server checks. */
export const tokenCan = (granted: readonly Scope[], id: RouteId): boolean => allows(granted, routes[id].scope);

/** The memory operations an agent's session may call as tools, by tool name, each with its route's one-line summary. */
export const toolSummaries: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(routes).flatMap((r) =>
    "tool" in r && typeof r.tool === "string" ? [[r.tool, r.summary] as const] : [],
  ),
);

/** One row of GET /stream-events. */
export type StreamEventInfo = ReturnType<typeof streamEventList>[number];

/** A 4xx/5xx from the service, with its stable `code` (README "Errors"). */
export class SmritiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "SmritiError";
  }
}

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  token: string;
  /** Sent as x-svc-actor-id; must be one of the token's actors. */
  actorId?: string;
  fetch?: typeof fetch;
  /** Times a request refused with 429 rate_limited is sent again after its Retry-After (default 2; 0 = never). */
  rateLimitRetries?: number;
}

/** The longest Retry-After the client sleeps through by itself; a longer one surfaces as the SmritiError. */
const MAX_RETRY_WAIT_S = 30;

export function createClient(opts: ClientOptions) {
  const retries = opts.rateLimitRetries ?? 2;
  const base = opts.fetch ?? fetch;
  // A request refused by the rate limit ran nothing on the server, so sending it again is safe for any method.
  const doFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    for (let attempt = 0; ; attempt++) {
      const res = await base(input, init);
      const wait = Number(res.headers.get("retry-after"));
      if (res.status !== 429 || attempt >= retries || !(wait >= 0 && wait <= MAX_RETRY_WAIT_S)) return res;
      if (
        (
          (await res
            .clone()
            .json()
            .catch(() => null)) as ErrorBody | null
        )?.error.code !== "rate_limited"
      )
        return res;
      await new Promise((r) => setTimeout(r, wait * 1000));
    }
  }) as typeof fetch;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    authorization: `Bearer ${opts.token}`,
    ...(opts.actorId ? { "x-svc-actor-id": opts.actorId } : {}),
    ...extra,
  });

  /** Calls any JSON route of the table by id. */
  async function call<K extends JsonRouteId>(id: K, input: Input<K>): Promise<Output<K>> {
    const op = routes[id];
    const url = new URL(fillPath(op.path, input as Record<string, unknown>), opts.baseUrl);
    const init: RequestInit = {
      method: op.method,
      headers: headers(op.method === "GET" ? {} : { "content-type": "application/json" }),
    };
    if (op.method === "GET") {
      const inPath = new Set(pathParameters(op.path));
      for (const [k, v] of Object.entries(input as object))
        if (v !== undefined && !inPath.has(k)) url.searchParams.set(k, String(v));
    } else {
      init.body = JSON.stringify(input);
    }
    return (await parse(await doFetch(url, init))) as Output<K>;
  }

  /** Opens a stream route; a resuming request sends Last-Event-ID and no body. */
  const open = (
    method: "GET" | "POST",
    path: string,
    body: unknown,
    lastEventId: string | null,
    signal?: AbortSignal,
  ) =>
    doFetch(new URL(path, opts.baseUrl), {
      method,
      headers: headers({
        ...(body !== null ? { "content-type": "application/json" } : {}),
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      }),
      ...(body !== null ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });

  return {
    call,
    ...cognitiveCalls(call),
    ...sessionCalls(call, open, parse),
    /** This token's workspace, id, allowed actors and scopes (any valid token may ask). */
    whoami: () => call("whoami", {}),
    recall: (input: Input<"recall">) => call("recall", input),
    ingest: (input: Input<"ingest">) => call("ingest", input),
    forget: (input: Input<"forget">) => call("forget", input),
    pack: (input: Input<"pack">) => call("pack", input),
    /** A stored source's text and chunk offsets: where a citation's text_span sits in what was ingested. */
    source: (sourcePath: string) => call("source_get", { source_path: sourcePath }),
    feedback: (input: Input<"feedback">) => call("feedback", input),
    uplift: (input: Input<"uplift"> = {}) => call("uplift", input),
    shravan: (input: Input<"shravan">) => call("shravan", input),
    manan: (input: Input<"manan">) => call("manan", input),
    nididhyasan: (input: Input<"nididhyasan">) => call("nididhyasan", input),
    knowledgeStatus: (input: Input<"knowledge_status"> = {}) => call("knowledge_status", input),
    knowledgeReview: (input: Input<"knowledge_review"> = {}) => call("knowledge_review", input),
    listProposals: (input: Input<"proposals_list"> = {}) => call("proposals_list", input),
    reviewProposal: (input: Input<"proposal_review">) => call("proposal_review", input),
    groundedAnswer: (input: Input<"grounded_answer">) => call("grounded_answer", input),
    groundedEval: (input: Input<"grounded_eval">) => call("grounded_eval", input),
    auditLog: (input: Input<"audit"> = {}) => call("audit", input),
    extractDecisions: (input: Input<"decision_extract">) => call("decision_extract", input),
    recordDecision: (input: Input<"decision_record">) => call("decision_record", input),
    listDecisions: (input: Input<"decisions_list"> = {}) => call("decisions_list", input),
    getDecision: (ref: string) => call("decision_get", { ref }),
    extractMeeting: (input: Input<"meeting_extract">) => call("meeting_extract", input),
    openLoops: (input: Input<"open_loops"> = {}) => call("open_loops", input),
    /** GET /stream-events: every event type a session stream can carry, with its tier (default or debug view). */
    streamEvents: async () =>
      (await parse(await doFetch(new URL(routes.stream_events.path, opts.baseUrl)))) as { events: StreamEventInfo[] },
    /** GET /metrics: the Prometheus exposition text (per-route latency histograms, layer counters). */
    metricsText: async () => {
      const res = await doFetch(new URL(routes.metrics.path, opts.baseUrl));
      if (!res.ok) await parse(res);
      return res.text();
    },
    /** The answer run as server-sent events; pass the last seen event id to resume after a disconnect. */
    async *groundedAnswerStream(
      input: GroundedAnswerRequest | null,
      resume?: { lastEventId: string },
    ): AsyncGenerator<SseEvent> {
      const row = routes.grounded_answer_stream;
      const res = await doFetch(new URL(row.path, opts.baseUrl), {
        method: row.method,
        headers: headers({
          "content-type": "application/json",
          ...(resume ? { "last-event-id": resume.lastEventId } : {}),
        }),
        ...(resume ? {} : { body: JSON.stringify(input) }),
      });
      if (!res.ok || !res.body) return void (await parse(res));
      yield* parseSse(res.body);
    },
  };
}

export type SmritiClient = ReturnType<typeof createClient>;

async function parse(res: Response): Promise<unknown> {
  const body = (await res.json().catch(() => null)) as unknown;
  if (res.ok) return body;
  const error = (body as ErrorBody | null)?.error;
  throw new SmritiError(
    res.status,
    error?.code ?? "http_error",
    error?.message ?? `HTTP ${res.status}`,
    error?.details,
  );
}
