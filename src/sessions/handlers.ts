// The session rows of the route table bound to the chat and background session services (the services answer the other rows).
import type { SessionRouteId } from "../contract/routes.ts";
import type { Handlers, StreamHandlers } from "../ports/route-handlers.ts";
import type { BackgroundSessions } from "./background/background-sessions.ts";
import type { ChatSessions } from "./chat-sessions.ts";

/** The session rows' handlers: sessions answer them, services the rest. */
export type SessionHandlers = Pick<Handlers, Extract<SessionRouteId, keyof Handlers>>;
export type SessionStreamHandlers = Pick<StreamHandlers, Extract<SessionRouteId, keyof StreamHandlers>>;

export function buildSessionHandlers(chat: ChatSessions, background: BackgroundSessions): SessionHandlers {
  return {
    chat_session_create: (ctx, input) => chat.create(ctx, input),
    chat_session_get: (ctx, input) => chat.detail(ctx, input.session_id),
    chat_session_branch: (ctx, input) => chat.branch(ctx, input),
    session_start: (ctx, input) => background.start(ctx, input),
    session_list: (ctx, input) => background.list(ctx, input),
    session_get: (ctx, input) => background.detail(ctx, input.session_id),
    session_pause: (ctx, input) => background.pause(ctx, input.session_id),
    session_resume: (ctx, input) => background.resume(ctx, input),
    session_cancel: (ctx, input) => background.cancel(ctx, input.session_id),
    session_approval: (ctx, input) => background.decide(ctx, input),
  };
}

export function buildSessionStreamHandlers(chat: ChatSessions, background: BackgroundSessions): SessionStreamHandlers {
  return {
    chat_message: (ctx, input, lastEventId, signal, path) =>
      input ? chat.message(ctx, input, signal) : chat.resumeSegment(ctx, path.session_id ?? "", lastEventId!, signal),
    chat_approval: (ctx, input, lastEventId, signal, path) =>
      input ? chat.decide(ctx, input, signal) : chat.resumeSegment(ctx, path.session_id ?? "", lastEventId!, signal),
    session_events: (ctx, input, lastEventId, signal, path) =>
      chat.events(ctx, input, lastEventId, input?.session_id ?? path.session_id ?? "", signal),
    session_health: (ctx, input, lastEventId, signal, path) =>
      background.healthStream(ctx, input?.session_id ?? path.session_id ?? "", lastEventId, signal),
  };
}
