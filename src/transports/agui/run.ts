// One AG-UI run on a chat session, over the native routes' handlers (no second runtime): a user message starts a turn,
// a resume answers the pending approval, anything else replays the thread's latest turn (a client back after a cut).
import { EventType, type AGUIEvent } from "@ag-ui/core";
import type { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { z } from "zod";
import { AppError, toAppError } from "../../contract/errors.ts";
import { endsTurnSegment } from "../../contract/events.ts";
import type { StreamMessage } from "../../contract/route.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { Runtime } from "../../runtime.ts";
import { initialState } from "./agent-state.ts";
import { heldBy, RunProjection } from "./projection.ts";

/** The run's input as @ag-ui/core's schema parsed it. */
export type RunInput = z.output<typeof RunAgentInputSchema>;
type Sessions = Pick<Runtime, "handlers" | "streams" | "chatThread" | "log">;

/** The run's AG-UI events: RUN_STARTED, STATE_SNAPSHOT, the projected turn, then RUN_FINISHED or RUN_ERROR. */
export async function* aguiRun(
  rt: Sessions,
  call: CallContext,
  input: RunInput,
  signal: AbortSignal,
): AsyncGenerator<AGUIEvent> {
  const { threadId, runId } = input;
  yield { type: EventType.RUN_STARTED, threadId, runId };
  const projection = new RunProjection(heldBy(input.messages));
  try {
    const sessionId = await rt.chatThread(call, threadId);
    yield { type: EventType.STATE_SNAPSHOT, snapshot: initialState(sessionId) };
    for await (const m of await nativeSegment(rt, call, sessionId, input, signal)) yield* projection.project(m);
    if (signal.aborted) return;
    yield* projection.finish(threadId, runId);
  } catch (err) {
    if (signal.aborted) return;
    const e = toAppError(err, rt.log);
    yield* projection.endText();
    yield { type: EventType.RUN_ERROR, message: e.message, code: e.code };
  }
}

/** The native stream this run projects: a new turn, the decided approval's rest, or the latest turn again. */
async function nativeSegment(
  rt: Sessions,
  call: CallContext,
  sessionId: string,
  input: RunInput,
  signal: AbortSignal,
): Promise<AsyncIterable<StreamMessage>> {
  const path = { session_id: sessionId };
  const pending = (await rt.handlers.chat_session_get(call, path)).pending_approval;
  const resume = input.resume ?? [];
  if (resume.length) {
    const entry = resume.find((r) => r.interruptId === pending?.request_id);
    if (!pending || !entry || resume.length > 1)
      throw new AppError(
        "invalid_request",
        `resume must answer exactly the thread's open interrupt (${pending?.request_id ?? "none is open"})`,
      );
    const payload = entry.payload as { approved?: unknown; note?: unknown } | undefined;
    const decision = entry.status === "resolved" && payload?.approved === true ? "approve" : "deny";
    const note = typeof payload?.note === "string" ? payload.note : undefined;
    const body = { ...path, request_id: pending.request_id, decision, ...(note ? { note } : {}) } as const;
    return rt.streams.chat_approval(call, body, null, signal, { ...path, request_id: pending.request_id });
  }
  const last = input.messages.at(-1);
  if (last?.role === "user") {
    if (pending)
      throw new AppError(
        "awaiting_approval",
        `the thread waits for an answer to interrupt ${pending.request_id}: send it in resume`,
        { request_id: pending.request_id },
      );
    const message =
      typeof last.content === "string"
        ? last.content
        : last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    return rt.streams.chat_message(call, { ...path, message }, null, signal, path);
  }
  return rt.streams.chat_message(call, null, await latestSegmentStart(rt, call, sessionId, signal), signal, path);
}

/** The id of the event before the session's latest turn segment (the log's last segment end before it, or its start). */
async function latestSegmentStart(
  rt: Sessions,
  call: CallContext,
  sessionId: string,
  signal: AbortSignal,
): Promise<string> {
  const ends: string[] = [];
  let last = `${sessionId}/1`;
  const log = await rt.streams.session_events(call, { session_id: sessionId, follow: false }, null, signal, {});
  for await (const m of log) {
    if (endsTurnSegment(m.event, m.data)) ends.push(m.id);
    last = m.id;
  }
  // A log ending on a segment end replays that segment (from the end before it); otherwise the one still running.
  return (ends.at(-1) === last ? ends.at(-2) : ends.at(-1)) ?? `${sessionId}/1`;
}
