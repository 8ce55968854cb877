// A new session's state: the spec's common session_state fields from a create request (chat and background alike),
// checked against what this service is configured with.
import { AppError } from "../contract/errors.ts";
import type { SessionEventData } from "../contract/events.ts";
import type { CreateChatSession } from "../contract/sessions.ts";
import type { ProviderSet } from "../ports/llm.ts";
import type { CallContext } from "../services/context.ts";
import type { PolicySource } from "./policy.ts";
import { resolveSandbox } from "./sandbox.ts";

type State = SessionEventData<"session_state">;

/** The request's common fields as a state; 400 for a provider not configured or a policy file that cannot be read. */
export async function newSessionState(providers: ProviderSet, policies: PolicySource, call: CallContext, body: CreateChatSession, sessionId: string, status: string): Promise<State> {
  const provider = body.provider ?? providers.defaultProvider;
  if (!providers.ids.includes(provider)) throw new AppError("invalid_request", `provider '${provider}' is not configured; configured: ${providers.ids.join(", ")}`);
  if (body.policy_path) await policies(body.policy_path);
  return {
    session_id: sessionId,
    status,
    provider,
    model: body.model ?? providers.chain(provider, null)[0]!.model,
    agent_profile: body.agent_profile,
    permission_mode: body.permission_mode,
    approval_mode: body.approval_mode,
    think_level: body.think_level,
    policy_path: body.policy_path,
    sandbox_mode: body.sandbox_mode,
    sandbox_isolation: resolveSandbox(body.sandbox_mode).resolved,
    workspace_id: call.workspaceId,
    context_budget_tokens: body.context_budget_tokens ?? providers.contextTokens(provider),
    tool_timeout_ms: body.tool_timeout_ms,
    updated_at: new Date().toISOString(),
  };
}

/** Only the common fields of a state (a sub-agent is a chat session even when a background run delegates to it). */
export const commonFields = (s: State): State => ({
  session_id: s.session_id,
  status: s.status,
  provider: s.provider,
  model: s.model,
  agent_profile: s.agent_profile,
  permission_mode: s.permission_mode,
  approval_mode: s.approval_mode,
  think_level: s.think_level,
  policy_path: s.policy_path,
  sandbox_mode: s.sandbox_mode,
  sandbox_isolation: s.sandbox_isolation,
  workspace_id: s.workspace_id,
  context_budget_tokens: s.context_budget_tokens,
  tool_timeout_ms: s.tool_timeout_ms,
});
