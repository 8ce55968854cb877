// What the session harness needs from a language model: one step of a conversation, streamed as typed events.

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** On an assistant message: the tool calls it asked for. */
  toolCalls?: readonly ToolCallRequest[] | undefined;
  /** On a tool message: which call it answers. */
  toolCallId?: string | undefined;
}

/** A tool offered to the model: the same name, description and JSON schema as its MCP tool. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call as the model wrote it; `arguments` is its raw JSON text (the harness validates it against the schema). */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

export type ProviderEvent =
  | { type: "text"; text: string }
  /** What the model or agent states about its plan (a reasoning model's reasoning deltas); never invented by the harness. */
  | { type: "thinking"; text: string }
  | { type: "tool_call"; call: ToolCallRequest }
  | { type: "usage"; inputTokens: number; outputTokens: number }
  | { type: "done"; finishReason: string };

/** Why a provider failed; the harness falls back to the next provider and reports it (transport_diagnostic). */
export class ProviderError extends Error {
  constructor(
    readonly kind: "protocol" | "cut" | "timeout" | "rate_limited" | "server" | "unreachable",
    message: string,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface LlmProvider {
  /** e.g. "openai", "extractive". */
  readonly id: string;
  readonly model: string;
  /** One model step: text deltas as they come, the complete tool calls when the model finishes, usage, then done. Throws ProviderError. */
  step(req: {
    messages: readonly ChatMessage[];
    tools: readonly ToolSpec[];
    signal?: AbortSignal | undefined;
  }): AsyncIterable<ProviderEvent>;
}

/** The providers a service is configured with, and the fallback order a turn walks when one fails. */
export interface ProviderSet {
  readonly defaultProvider: string;
  readonly ids: readonly string[];
  /** The provider asked for (with the session's model when given), then the configured fallbacks; extractive last. */
  chain(provider: string, model: string | null): LlmProvider[];
  /** What tokens cost on the provider in USD: 0 for extractive, null when no price is configured. */
  costUsd(provider: string, inputTokens: number, outputTokens: number): number | null;
  /** The model's context budget in tokens (configured, or the provider's default). */
  contextTokens(provider: string): number;
}
