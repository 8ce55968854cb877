// The A2A bridge: hands the task to a catalog agent over the Agent2Agent protocol (the official SDK's client, transport
// chosen from the agent card at the URL), every request through a fetch bounded to the hosts, size and time the catalog
// allows. The remote task's id is kept as an artifact as soon as it is known, so a recovered run asks for that task's
// result instead of sending the task again. Errors carry stable codes, never the remote's words. Best effort: no
// per-tool events.
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { boundedFetch, refusalIn } from "../policy/outbound.ts";
import type { Execution } from "../policy/rules.ts";
import type { PolicySource } from "../policy/policy.ts";
import { gate, notice, replan } from "./bridge.ts";
import type { BackgroundEngine, RunContext, RunOutcome } from "./engine.ts";

type Data = Record<string, unknown>;

/** How often a recovered run asks the remote agent about a task it already holds. */
const POLL_MS = 250;
const FINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export class A2aEngine implements BackgroundEngine {
  readonly id = "a2a";
  constructor(
    private readonly policies: PolicySource,
    private readonly execution: Execution,
  ) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    const planned = replan(ctx, this.execution, "a2a");
    if ("status" in planned) return planned;
    const { plan, sandbox } = planned;
    // The task leaves this service for another agent: it counts as a write (on-write asks first).
    const stop = await gate(ctx, "a2a", true, this.policies);
    if (stop) return stop;
    await notice(ctx, sandbox);
    const timeout = AbortSignal.timeout(plan.limits.timeout_seconds * 1_000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const fetchImpl = boundedFetch(
      { hosts: plan.limits.hosts, maxResponseBytes: plan.limits.max_response_bytes },
      signal,
    );
    try {
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      });
      const client = await factory.createFromUrl(plan.url);
      const known = remoteTaskId(ctx);
      const result = known ? await this.await(client, known, signal) : await this.send(client, ctx, plan.url, signal);
      if (ctx.signal.aborted) return this.cancel(client, result);
      if (timeout.aborted) return timedOut(plan.limits.timeout_seconds);
      return outcomeOf(result);
    } catch (err) {
      if (ctx.signal.aborted) return { status: "stopped" };
      if (timeout.aborted) return timedOut(plan.limits.timeout_seconds);
      const refused = refusalIn(err);
      if (refused)
        return {
          status: "error",
          code: refused.code,
          message: `${refused.code}: ${refused.message}`,
          transient: false,
        };
      // Unreachable, or an answer that is not A2A: worth a retry. What the remote said stays out of last_error.
      return {
        status: "error",
        code: "a2a_unreachable",
        message: `a2a_unreachable: the agent at ${plan.url} could not be reached or did not answer as an A2A agent`,
        transient: true,
      };
    }
  }

  private async send(client: Client, ctx: RunContext, url: string, signal: AbortSignal): Promise<Message | Task> {
    const message: Message = {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: "text", value: ctx.resume.task },
          metadata: undefined,
          filename: "",
          mediaType: "text/plain",
        },
      ],
      taskId: "",
      contextId: ctx.sessionId,
      extensions: [],
      metadata: { smriti_session_id: ctx.sessionId },
      referenceTaskIds: [],
    };
    // Not blocking: the remote task's id is logged before its answer, so a recovered run never sends the task twice.
    const configuration = {
      acceptedOutputModes: ["text/plain", "text"],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    };
    const result = await client.sendMessage({ tenant: "", message, configuration, metadata: {} }, { signal });
    if (!("status" in result)) return result; // the agent answered with a message, no task
    await ctx.checkpoint("remote_task", "submitted", `remote task ${result.id} at ${url}`, {
      artifact: { type: "run_record", engine: "a2a", remote_task_id: result.id, agent_url: url },
    });
    return FINAL.has(result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)
      ? result
      : this.await(client, result.id, signal);
  }

  /** A task sent by an earlier run: wait for its end instead of sending the task again. */
  private async await(client: Client, id: string, signal: AbortSignal): Promise<Task> {
    for (;;) {
      const task = await client.getTask({ tenant: "", id, historyLength: 0 }, { signal });
      if (FINAL.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED) || signal.aborted) return task;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async cancel(client: Client, result: Message | Task): Promise<RunOutcome> {
    if ("status" in result && !FINAL.has(result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED))
      await client
        .cancelTask({ tenant: "", id: result.id, metadata: {} }, { signal: AbortSignal.timeout(5_000) })
        .catch(() => {});
    return { status: "stopped" };
  }
}

function outcomeOf(result: Message | Task): RunOutcome {
  if (!("status" in result)) return { status: "completed", output: textOf(result.parts), citations: 0 };
  const state = result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (state === TaskState.TASK_STATE_COMPLETED) {
    const output =
      result.artifacts.map((a) => textOf(a.parts)).join("\n") || textOf(result.status?.message?.parts ?? []);
    return { status: "completed", output, citations: 0 };
  }
  // The state's name, not the remote's message: last_error never carries a remote's words.
  const why = `a2a_task_failed: the remote agent's task ended ${TaskState[state] ?? "in an unknown state"}`;
  // input-required and auth-required need a person at the remote end, which the bridge does not relay.
  return { status: "error", code: "a2a_task_failed", message: why, transient: false };
}

const timedOut = (seconds: number): RunOutcome => ({
  status: "error",
  code: "a2a_timeout",
  message: `a2a_timeout: the remote agent did not finish within the catalog's ${seconds} s`,
  transient: false,
});

const textOf = (parts: readonly Part[]) =>
  parts
    .map((p) =>
      p.content?.$case === "text"
        ? p.content.value
        : p.content?.$case === "data"
          ? JSON.stringify(p.content.value)
          : "",
    )
    .join("");

/** The remote task an earlier run of this session sent. */
function remoteTaskId(ctx: RunContext): string | null {
  const e = ctx.events.findLast(
    (x) => x.type === "session_checkpoint" && (x.data as Data).checkpoint_type === "remote_task",
  );
  return e ? String(((e.data as Data).artifact as Data).remote_task_id) : null;
}
