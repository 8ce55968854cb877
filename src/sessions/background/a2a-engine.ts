// The A2A bridge: hands the task to a remote agent over the Agent2Agent protocol (the official SDK's client, transport
// chosen from the agent card at the URL). The remote task's id is kept as an artifact as soon as it is known, so a
// recovered run asks for that task's result instead of sending the task again. Best effort: no per-tool events.
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { clip } from "../projection.ts";
import type { PolicySource } from "../policy.ts";
import { gate, notice } from "./bridge.ts";
import type { BackgroundEngine, RunContext, RunOutcome } from "./engine.ts";

type Data = Record<string, unknown>;

/** How often a recovered run asks the remote agent about a task it already holds. */
const POLL_MS = 250;
const FINAL = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

export class A2aEngine implements BackgroundEngine {
  readonly id = "a2a";
  constructor(private readonly policies: PolicySource) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    const url = ctx.resume.agent_url!;
    // The task leaves this service for another agent: it counts as a write (on-write asks first).
    const stop = await gate(ctx, "a2a", true, this.policies);
    if (stop) return stop;
    await notice(ctx, { requested: ctx.state.sandbox_mode as "auto", resolved: "remote" as "process", isolation: `none here: the task runs on the remote agent at ${url}`, reason: "a2a bridge" });
    try {
      const client = await new ClientFactory().createFromUrl(url);
      const known = remoteTaskId(ctx);
      const result = known ? await this.await(client, known, ctx.signal) : await this.send(client, ctx);
      if (ctx.signal.aborted) return this.cancel(client, result, ctx);
      return outcomeOf(result);
    } catch (err) {
      if (ctx.signal.aborted) return { status: "stopped" };
      // The agent could not be reached or answered with a transport error: worth a retry.
      return { status: "error", code: "a2a_unreachable", message: `${url}: ${err instanceof Error ? err.message : String(err)}`, transient: true };
    }
  }

  private async send(client: Client, ctx: RunContext): Promise<Message | Task> {
    const message: Message = {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [{ content: { $case: "text", value: ctx.resume.task }, metadata: undefined, filename: "", mediaType: "text/plain" }],
      taskId: "",
      contextId: ctx.sessionId,
      extensions: [],
      metadata: { smriti_session_id: ctx.sessionId },
      referenceTaskIds: [],
    };
    // Not blocking: the remote task's id is logged before its answer, so a recovered run never sends the task twice.
    const configuration = { acceptedOutputModes: ["text/plain", "text"], taskPushNotificationConfig: undefined, returnImmediately: true };
    const result = await client.sendMessage({ tenant: "", message, configuration, metadata: {} }, { signal: ctx.signal });
    if (!("status" in result)) return result; // the agent answered with a message, no task
    await ctx.checkpoint("remote_task", "submitted", `remote task ${result.id} at ${ctx.resume.agent_url!}`, { artifact: { type: "run_record", engine: "a2a", remote_task_id: result.id, agent_url: ctx.resume.agent_url! } });
    return FINAL.has(result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED) ? result : this.await(client, result.id, ctx.signal);
  }

  /** A task sent by an earlier run: wait for its end instead of sending the task again. */
  private async await(client: Client, id: string, signal: AbortSignal): Promise<Task> {
    for (;;) {
      const task = await client.getTask({ tenant: "", id, historyLength: 0 }, { signal });
      if (FINAL.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED) || signal.aborted) return task;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async cancel(client: Client, result: Message | Task, ctx: RunContext): Promise<RunOutcome> {
    if ("status" in result && !FINAL.has(result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) await client.cancelTask({ tenant: "", id: result.id, metadata: {} }).catch(() => {});
    void ctx;
    return { status: "stopped" };
  }
}

function outcomeOf(result: Message | Task): RunOutcome {
  if (!("status" in result)) return { status: "completed", output: textOf(result.parts), citations: 0 };
  const state = result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const said = textOf(result.status?.message?.parts ?? []);
  if (state === TaskState.TASK_STATE_COMPLETED) return { status: "completed", output: result.artifacts.map((a) => textOf(a.parts)).join("\n") || said, citations: 0 };
  const why = `the remote agent's task ${result.id} ended ${TaskState[state] ?? state}${said ? `: ${clip(said, 300)}` : ""}`;
  // input-required and auth-required need a person at the remote end, which the bridge does not relay.
  return { status: "error", code: "a2a_task_failed", message: why, transient: false };
}

const textOf = (parts: readonly Part[]) => parts.map((p) => (p.content?.$case === "text" ? p.content.value : p.content?.$case === "data" ? JSON.stringify(p.content.value) : "")).join("");

/** The remote task an earlier run of this session sent. */
function remoteTaskId(ctx: RunContext): string | null {
  const e = ctx.events.findLast((x) => x.type === "session_checkpoint" && (x.data as Data).checkpoint_type === "remote_task");
  return e ? String(((e.data as Data).artifact as Data).remote_task_id) : null;
}
