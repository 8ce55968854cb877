// A remote A2A agent for the bridge's tests, built with the official SDK's server half (JSON-RPC over express): it
// answers "echo: <task>" as an artifact, fails a task that says "fail", and holds a task that says "slow" until released.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, TaskState, type AgentCard, type Task } from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";

export interface A2aPeer {
  url: string;
  /** Tasks the agent was sent, in order. */
  received: string[];
  /** Lets the held ("slow") tasks finish. */
  release(): void;
  close(): Promise<void>;
}

const text = (value: string) => ({
  content: { $case: "text" as const, value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

class EchoExecutor implements AgentExecutor {
  readonly received: string[] = [];
  private held: (() => void)[] = [];

  release(): void {
    for (const go of this.held.splice(0)) go();
  }

  cancelTask = async (): Promise<void> => {};

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const task = ctx.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    this.received.push(task);
    const base: Task = {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: {},
    };
    bus.publish(AgentEvent.task(base));
    if (task.includes("slow")) await new Promise<void>((go) => this.held.push(go));
    const failed = task.includes("fail");
    if (!failed)
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          artifact: {
            artifactId: randomUUID(),
            name: "answer",
            description: "",
            parts: [text(`echo: ${task}`)],
            metadata: {},
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: {},
        }),
      );
    const state = failed ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED;
    const message = failed
      ? {
          role: 2,
          messageId: randomUUID(),
          parts: [text("cannot do that")],
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          extensions: [],
          metadata: {},
          referenceTaskIds: [],
        }
      : undefined;
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        status: { state, timestamp: new Date().toISOString(), message },
        metadata: {},
      }),
    );
    bus.finished();
  }
}

export async function startA2aPeer(): Promise<A2aPeer> {
  const executor = new EchoExecutor();
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: "Echo agent",
    description: "Answers each task with an echo of it.",
    supportedInterfaces: [
      { url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: [],
    documentationUrl: "",
    signatures: [],
  } as unknown as AgentCard;
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    received: executor.received,
    release: () => executor.release(),
    close: () =>
      new Promise((resolve) => {
        executor.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
