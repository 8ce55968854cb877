// A new session's state: the spec's common session_state fields from a create request (chat and background alike),
// checked against what this service is configured with.
import { AppError } from "../contract/errors.ts";
import type { SessionEventData } from "../contract/events.ts";
import type { CreateChatSession } from "../contract/sessions.ts";
import type { ProviderSet } from "../ports/llm.ts";
import type { CallContext } from "../ports/call-context.ts";
import { sandboxFor, stricter, type Execution, type ExecutionPlan } from "./policy/rules.ts";
import type { PolicySource } from "./policy/policy.ts";

type State = SessionEventData<"session_state">;
type Decision = SessionEventData<"policy_decision">;

/** What a new session needs of the service's configuration. */
export interface SessionSetup {
  providers: ProviderSet;
  policies: PolicySource;
  execution: Execution;
}

/**
 * The request's common fields as a state, with the approval_mode raised to the operator's floor (the decision says so);
 * 400 for a provider not configured, a policy file that cannot be read, or an isolation the host cannot give.
 */
export async function newSessionState(
  setup: SessionSetup,
  call: CallContext,
  body: CreateChatSession,
  sessionId: string,
  status: string,
  plan: ExecutionPlan = { engine: "native" },
): Promise<{ state: State; raised: Decision | null }> {
  const { providers, policies, execution } = setup;
  const provider = body.provider ?? providers.defaultProvider;
  if (!providers.ids.includes(provider))
    throw new AppError(
      "invalid_request",
      `provider '${provider}' is not configured; configured: ${providers.ids.join(", ")}`,
    );
  const policy = body.policy_path ? await policies(body.policy_path) : null;
  const sandbox = sandboxFor(execution, body.sandbox_mode, plan, (policy?.hooks.length ?? 0) > 0);
  const { floor, source } = execution.rules.floor(call.workspaceName, plan);
  const approval_mode = stricter(body.approval_mode, floor);
  const raised: Decision | null =
    approval_mode === body.approval_mode
      ? null
      : {
          subject: "approval_mode",
          outcome: "allow",
          reason: `approval_mode ${body.approval_mode} raised to ${approval_mode}, the floor of ${source}`,
          source: "approval_floor",
          policy_path: body.policy_path,
          permission_mode: body.permission_mode,
          approval_mode,
        };
  const state: State = {
    session_id: sessionId,
    status,
    provider,
    model: body.model ?? providers.chain(provider, null)[0]!.model,
    agent_profile: body.agent_profile,
    permission_mode: body.permission_mode,
    approval_mode,
    think_level: body.think_level,
    policy_path: body.policy_path,
    sandbox_mode: body.sandbox_mode,
    sandbox_isolation: sandbox.resolved,
    workspace_id: call.workspaceId,
    context_budget_tokens: body.context_budget_tokens ?? providers.contextTokens(provider),
    tool_timeout_ms: body.tool_timeout_ms,
    updated_at: new Date().toISOString(),
  };
  return { state, raised };
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
