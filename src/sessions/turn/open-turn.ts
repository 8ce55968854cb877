// A turn's value, set up from the session's log: its writer (over the log read once), the conversation before a branch,
// the policy file and sandbox its tool calls run under, and the counters its own calls commit.
import { join } from "node:path";
import { AppError } from "../../contract/errors.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import type { ChatMessage } from "../../ports/llm.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { sandboxFor } from "../policy/rules.ts";
import type { Sandbox, SandboxMode } from "../policy/sandbox.ts";
import { parseResumeCursor } from "../ids.ts";
import { heldByRun } from "../log/projection.ts";
import type { PolicyFile } from "../policy/policy.ts";
import type { CallScope } from "../tools/tool-runner.ts";
import { messagesOf } from "./history.ts";
import { isBackground, type HarnessDeps, type State, type Turn } from "./turn-state.ts";
import { TurnWriter } from "./turn-writer.ts";

/** Branches of branches are followed this deep for a conversation's beginning. */
const BRANCH_DEPTH = 32;

/** The turn `turnId` of the session as its log stands; `signal` stops it (a background run) or says its lease was lost (chat). */
export async function openTurn(
  deps: HarnessDeps,
  outer: CallContext,
  sessionId: string,
  prior: State,
  turnId: string,
  message: string,
  signal: AbortSignal | undefined,
): Promise<Turn> {
  const counters = new Map<string, number>();
  const call: CallContext = {
    ...outer,
    onCounter: (layer, counter, n) => {
      const key = `${layer}.${counter}`;
      counters.set(key, (counters.get(key) ?? 0) + n);
      outer.onCounter?.(layer, counter, n);
    },
  };
  const state: State = { ...prior, last_error: null }; // a new turn (or its continuation) starts clean
  const events = await deps.log.all(call.workspaceId, sessionId);
  const prefix = await branchPrefix(deps, call.workspaceId, events);
  const writer = new TurnWriter(deps.log, call.workspaceId, sessionId, events, prefix, {
    eventsPerWrite: deps.eventsPerWrite,
    lost: isBackground(state) ? undefined : signal,
    held: isBackground(state) ? heldByRun(state) : undefined,
  });
  let policy: PolicyFile | null = null;
  let blocked: AppError | null = null;
  // A policy that cannot be read stops the turn: running without its deny rules would be worse than not running.
  if (state.policy_path)
    policy = await deps
      .policies(state.policy_path)
      .catch(
        (err: unknown) => (
          (blocked = err instanceof AppError ? err : new AppError("invalid_request", String(err))),
          null
        ),
      );
  let sandbox: Sandbox = {
    requested: state.sandbox_mode as SandboxMode,
    resolved: "none",
    isolation: "none",
    reason: "the turn is blocked",
  };
  try {
    sandbox = sandboxFor(
      deps.execution,
      state.sandbox_mode as SandboxMode,
      { engine: "native" },
      (policy?.hooks.length ?? 0) > 0,
    );
  } catch (err) {
    // Hooks that cannot run isolated stop the turn rather than run weaker (a host that lost bubblewrap since the start).
    blocked ??= err instanceof AppError ? err : new AppError("internal_error", String(err));
  }
  const scope: CallScope = {
    call,
    sessionId,
    taskDir: join(deps.taskRoot, call.workspaceId, sessionId),
    state,
    writer,
    policy,
    sandbox,
    isolation: deps.execution.isolation,
    timeoutMs: state.tool_timeout_ms ?? 30_000,
    now: () => performance.now(),
    notified: { hooks: false, files: false },
  };
  return {
    call,
    sessionId,
    turnId,
    message,
    state,
    writer,
    blocked,
    scope,
    offered: [],
    usage: { input: 0, output: 0 },
    repairs: 0,
    failures: 0,
    counters,
    signal,
  };
}

/** A branch's conversation before its own events: its source's, up to the branch point (and so on up the branches). */
async function branchPrefix(
  deps: HarnessDeps,
  workspaceId: string,
  events: readonly StreamEvent[],
  depth = 0,
): Promise<ChatMessage[]> {
  const seed = events.find(
    (e) => e.type === "session_checkpoint" && (e.data as { checkpoint_type: string }).checkpoint_type === "resume_seed",
  );
  const cursor = (seed?.data as { resume_cursor: string | null } | undefined)?.resume_cursor;
  if (!cursor || depth >= BRANCH_DEPTH) return [];
  const point = parseResumeCursor(cursor);
  const source = await deps.log.all(workspaceId, point.sessionId, point.seq);
  return messagesOf(source, await branchPrefix(deps, workspaceId, source, depth + 1));
}
