// How a turn ends in the log: completed (the response, its reflection, retrieval and cognition summaries, usage, turn_end,
// then idle for a chat session), as an error, or stopped. The closing events go through the turn's writer; an error's
// end is logged straight to the session log, since it is logged too when a turn could not even be opened.
import { AppError } from "../../contract/errors.ts";
import type { SessionEventItem } from "../log/session-log.ts";
import { ProviderError } from "../../ports/llm.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { currentTurn } from "../log/projection.ts";
import { reflect, turnCitations, turnPack, turnText } from "./turn-evidence.ts";
import { isBackground, type HarnessDeps, type State, type Turn, type TurnOutcome } from "./turn-state.ts";
import { RunStopped } from "./turn-writer.ts";

/** Counters that mean a guardrail acted (flagged injection, dropped invalid or duplicate evidence, withheld an answer). */
const GUARDRAILS = new Set([
  "injection_flagged",
  "items_dropped_invalid",
  "answers_blocked_uncited",
  "answers_withheld",
  "chunks_dropped_duplicate",
]);

/** The turn's closing events, logged together once all of them are known. */
export async function finish(deps: HarnessDeps, t: Turn): Promise<TurnOutcome> {
  const turnEvents = currentTurn(t.writer.events);
  const text = turnText(turnEvents);
  const citations = turnCitations(turnEvents);
  const changed = [...t.counters].filter(([, n]) => n > 0).map(([key]) => key);
  // The extractive agent costs nothing; a model's price is the configured one, or unknown (null, not a guess).
  const cost = deps.providers.costUsd(t.state.provider, t.usage.input, t.usage.output);
  const turn_id = t.turnId;
  const closing: SessionEventItem[] = [
    { type: "response", data: { turn_id, text, citations } },
    { type: "reflection", data: { turn_id, ...reflect(text, citations) } },
    { type: "retrieval", data: { turn_id, citations, pack: turnPack(turnEvents) } },
    {
      type: "cognition",
      data: {
        turn_id,
        layers: [...new Set(changed.map((k) => k.split(".")[0]!))].sort(),
        guardrails: changed.filter((k) => GUARDRAILS.has(k.split(".")[1]!)).sort(),
      },
    },
    { type: "usage", data: { turn_id, input_tokens: t.usage.input, output_tokens: t.usage.output, cost_usd: cost } },
    { type: "turn_end", data: { turn_id, status: "completed" } },
  ];
  if (!isBackground(t.state))
    closing.push(
      {
        type: "session_state",
        data: { ...t.state, status: "idle", approval_request_id: null, updated_at: deps.clock.now().toISOString() },
      },
      { type: "completed", data: { session_id: t.sessionId } },
    );
  await t.writer.writeAll(closing);
  return { status: "completed" };
}

/**
 * Runs `body`; any failure ends the turn as an error: a chat session logs it and takes the next message; a background one
 * ends the turn and leaves retry or failure to its supervisor (a provider's or the runtime's failure is transient, a refusal not).
 */
export async function guarded(deps: HarnessDeps, t: Turn, body: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
  const endTurn = (status: "error" | "cancelled") =>
    deps.log.append(t.call.workspaceId, t.sessionId, "turn_end", { turn_id: t.turnId, status });
  try {
    if (t.blocked) throw t.blocked;
    return await body();
  } catch (err) {
    // A chat turn is stopped only when another process took its lease over: that one ends it in the log, not this.
    if (err instanceof RunStopped)
      return isBackground(t.state)
        ? endTurn("cancelled").then((): TurnOutcome => ({ status: "stopped" }))
        : { status: "stopped" };
    if (!(err instanceof AppError) && !(err instanceof ProviderError))
      deps.logError(`session ${t.sessionId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const e =
      err instanceof AppError
        ? err
        : new AppError(
            "internal_error",
            err instanceof ProviderError ? `every provider failed; the last: ${err.message}` : "the turn failed",
          );
    const code = e.code === "internal_error" && err instanceof ProviderError ? "provider_failed" : e.code;
    const ended = isBackground(t.state)
      ? endTurn("error")
      : failTurn(deps, t.call, t.sessionId, t.state, t.turnId, code, e.message);
    const logged = await ended.then(
      () => true,
      (err2: unknown) => (deps.logError(`session ${t.sessionId}: end not logged (${String(err2)})`), false),
    );
    // A store that went away is transient too: the run goes on (or the message is sent again) once it is back.
    const transient = !(err instanceof AppError) || e.code === "store_unavailable";
    return { status: "error", code, message: e.message, transient, ...(logged ? {} : { unlogged: true as const }) };
  }
}

/** Ends a chat turn as an error: turn_end, the idle state with last_error, then error (the stream's last event). */
export async function failTurn(
  deps: HarnessDeps,
  call: CallContext,
  sessionId: string,
  state: State,
  turnId: string | null,
  code: string,
  message: string,
): Promise<void> {
  const { log } = deps;
  if (turnId) await log.append(call.workspaceId, sessionId, "turn_end", { turn_id: turnId, status: "error" });
  await log.append(call.workspaceId, sessionId, "session_state", {
    ...state,
    status: "idle",
    approval_request_id: null,
    last_error: message,
    updated_at: deps.clock.now().toISOString(),
  });
  await log.append(call.workspaceId, sessionId, "error", { code, message, turn_id: turnId });
}
