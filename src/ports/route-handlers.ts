// The route table bound to calls: one handler per JSON row and per stream row, typed from the row's schemas. Services
// answer their rows (services/handlers.ts), sessions theirs (sessions/handlers.ts); transports look handlers up by id.
import type { z } from "zod";
import type { StreamMessage } from "../contract/route.ts";
import type { JsonRouteId, Routes, SessionRouteId, StreamRouteId } from "../contract/routes.ts";
import type { CallContext } from "./call-context.ts";

export type Handler<K extends JsonRouteId> = (
  ctx: CallContext,
  input: z.output<Routes[K]["input"]>,
) => Promise<z.input<Routes[K]["output"]>>;
export type Handlers = { [K in JsonRouteId]: Handler<K> };
/** The rows services answer: all but the session rows. */
export type ServiceHandlers = Omit<Handlers, SessionRouteId>;

/**
 * Opens a stream: a new one from its validated input, or the rest of one after the Last-Event-ID a client sent back.
 * `signal` aborts when the client goes away; what it missed stays in the event log.
 */
export type StreamHandler<K extends StreamRouteId> = (
  ctx: CallContext,
  input: z.output<Routes[K]["input"]> | null,
  lastEventId: string | null,
  signal: AbortSignal,
  /** The path parameters, which a resuming request (no validated input) still names its stream by. */
  path: Record<string, string>,
) => Promise<AsyncIterable<StreamMessage>>;
export type StreamHandlers = { [K in StreamRouteId]: StreamHandler<K> };
export type ServiceStreamHandlers = Omit<StreamHandlers, SessionRouteId>;
