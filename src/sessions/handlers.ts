// The session rows of the route table bound to the chat session service (the services answer the other rows).
import type { Handlers, StreamHandlers } from "../services/handlers.ts";
import type { sessionRoutes } from "../contract/sessions.ts";
import type { ChatSessions } from "./chat-sessions.ts";

type SessionRouteId = keyof typeof sessionRoutes;
export type SessionHandlers = Pick<Handlers, Extract<SessionRouteId, keyof Handlers>>;
export type SessionStreamHandlers = Pick<StreamHandlers, Extract<SessionRouteId, keyof StreamHandlers>>;

export function buildSessionHandlers(chat: ChatSessions): SessionHandlers {
  return {
    chat_session_create: (ctx, input) => chat.create(ctx, input),
    chat_session_get: (ctx, input) => chat.detail(ctx, input.session_id),
    chat_session_branch: (ctx, input) => chat.branch(ctx, input),
  };
}

export function buildSessionStreamHandlers(chat: ChatSessions): SessionStreamHandlers {
  return {
    chat_message: (ctx, input, lastEventId, signal, path) => (input ? chat.message(ctx, input, signal) : chat.resumeSegment(ctx, path.session_id ?? "", lastEventId!, signal)),
    chat_approval: (ctx, input, lastEventId, signal, path) => (input ? chat.decide(ctx, input, signal) : chat.resumeSegment(ctx, path.session_id ?? "", lastEventId!, signal)),
    session_events: (ctx, input, lastEventId, signal, path) => chat.events(ctx, input, lastEventId, input?.session_id ?? path.session_id ?? "", signal),
  };
}
