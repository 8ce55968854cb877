// The turn's loop: a prompt, a provider step, then the step's tool calls (checked, and a bad one sent back for repair)
// as a wave, until the model answers (the closing events) or a call waits for an operator; at most MAX_STEPS steps.
import { randomBytes } from "node:crypto";
import { AppError } from "../../contract/errors.ts";
import type { ChatMessage, ToolCallRequest } from "../../ports/llm.ts";
import { resumeCursor } from "../ids.ts";
import { currentTurn } from "../log/projection.ts";
import type { SessionTool } from "../tools/tool.ts";
import { finish } from "./closing.ts";
import { tokensOf } from "./context-budget.ts";
import { prompt } from "./prompt.ts";
import { providerStep } from "./provider-step.ts";
import { runWave } from "./tool-waves.ts";
import {
  isBackground,
  MAX_REPAIRS,
  MAX_STEPS,
  stopPoint,
  type HarnessDeps,
  type Turn,
  type TurnOutcome,
} from "./turn-state.ts";

/** Runs the turn's steps until it answers or pauses; `tools` finds a call's tool (every tool, delegate too). */
export async function stepLoop(deps: HarnessDeps, tools: readonly SessionTool[], t: Turn): Promise<TurnOutcome> {
  for (let step = 0; step < MAX_STEPS; step++) {
    stopPoint(t);
    const messages = await prompt(deps, t);
    const before = { ...t.usage };
    const { calls } = await providerStep(deps, t, messages);
    if (isBackground(t.state)) await progress(deps, t, messages, before, calls);
    if (calls.length === 0) return finish(deps, t);
    const valid = await validate(t, calls);
    if (!(await runWave(deps, tools, t, valid, undefined))) return { status: "awaiting_approval" };
    if (isBackground(t.state) && valid.length) await checkpoint(t, valid);
  }
  throw new AppError("internal_error", `the model kept calling tools for ${MAX_STEPS} steps without answering`);
}

/** Checks each call's name and arguments; a bad one goes back to the model as a validation error (a bounded repair loop). */
async function validate(t: Turn, calls: readonly ToolCallRequest[]): Promise<ToolCallRequest[]> {
  const valid: ToolCallRequest[] = [];
  let invalid = 0;
  for (const c of calls) {
    const id = `call_${randomBytes(8).toString("hex")}`;
    const tool = t.offered.find((o) => o.name === c.name);
    let issues: unknown[] = [];
    let json: unknown;
    try {
      json = JSON.parse(c.arguments);
    } catch {
      issues = [{ message: "arguments are not JSON" }];
    }
    if (!tool) issues = [{ message: `no tool '${c.name}' is offered in this turn` }];
    else if (!issues.length) {
      const parsed = tool.input.safeParse(json);
      if (!parsed.success) issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    }
    if (!issues.length) valid.push({ ...c, id });
    else {
      invalid++;
      await t.writer.write("tool_validation_error", {
        tool_call_id: id,
        tool_name: c.name,
        attempt: t.repairs + 1,
        issues,
        arguments: c.arguments,
      });
    }
  }
  if (invalid && ++t.repairs > MAX_REPAIRS)
    throw new AppError("invalid_request", `the model's tool arguments were still invalid after ${MAX_REPAIRS} repairs`);
  return valid;
}

/** A background run's step: what it did and cost (budgets read it before the turn's usage). */
async function progress(
  deps: HarnessDeps,
  t: Turn,
  messages: ChatMessage[],
  before: { input: number; output: number },
  calls: readonly ToolCallRequest[],
): Promise<void> {
  const step = currentTurn(t.writer.events).filter((e) => e.type === "step_progress").length + 1;
  const [input, output] = [t.usage.input - before.input, t.usage.output - before.output];
  await t.writer.write("step_progress", {
    step,
    total: null,
    label: calls.length ? `call ${calls.map((c) => c.name).join(", ")}` : "answer",
    status: "done",
    turn_id: t.turnId,
    input_tokens: input,
    output_tokens: output,
    cost_usd: deps.providers.costUsd(t.state.provider, input, output),
    context_tokens: tokensOf(messages),
    budget_tokens: t.state.context_budget_tokens ?? deps.providers.contextTokens(t.state.provider),
  });
}

/** After a background run's wave of calls: a checkpoint a recovery (or a branch) goes on from. */
async function checkpoint(t: Turn, calls: readonly ToolCallRequest[]): Promise<void> {
  const events = t.writer.events;
  const sequence = events.filter((e) => e.type === "session_checkpoint").length + 1;
  const outcomes = new Map(
    events
      .filter((e) => e.type === "tool_outcome")
      .map((e) => [(e.data as { tool_call_id: string }).tool_call_id, (e.data as { status: string }).status]),
  );
  const summary = calls.map((c) => `${c.name} ${outcomes.get(c.id) ?? "not run"}`).join(", ");
  await t.writer.write("session_checkpoint", {
    session_id: t.sessionId,
    sequence,
    checkpoint_type: "step",
    status: "ok",
    summary_text: summary,
    resume_cursor: resumeCursor({ sessionId: t.sessionId, seq: events.at(-1)!.seq }),
  });
}
