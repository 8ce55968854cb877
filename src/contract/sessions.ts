// Chat sessions (SPEC "Session routes"): what creates, drives, branches and reads one, as rows of the route table.
import { z } from "zod";
import { op, service, stream } from "./route.ts";
import { SessionState, sessionEvents } from "./events.ts";

const SessionId = z
  .string()
  .regex(/^ses_[0-9a-f-]{36}$/, "must be a session id as returned by POST /chat/sessions")
  .describe("The session's id (ses_…).");
/** `<session_id>/<seq>`: the SSE id of a logged event; seq counts the session's events from 1. */
export const EventId = z
  .string()
  .regex(/^ses_[0-9a-f-]{36}\/\d+$/, "must be an event id '<session_id>/<seq>' as sent by the session stream");

export const PermissionMode = SessionState.shape.permission_mode;
export const ApprovalMode = SessionState.shape.approval_mode;

export const CreateChatSession = z
  .strictObject({
    provider: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A configured provider (default: SMRITI_LLM_PROVIDER, else extractive)."),
    model: z.string().min(1).max(200).optional().describe("The provider's model (default: the configured one)."),
    agent_profile: z.string().min(1).max(64).default("memory-agent"),
    permission_mode: PermissionMode.default("workspace-write").describe(
      "read-only: no write tools; workspace-write: memory writes and the session's own files; full: every tool.",
    ),
    approval_mode: ApprovalMode.default("on-write").describe(
      "never: no approvals; on-write: write tools wait for an operator; always: every tool does.",
    ),
    think_level: z
      .enum(["off", "brief", "full"])
      .default("brief")
      .describe(
        "off: no thinking events; brief and full (the same today): the plan the agent states, or a reasoning model's reasoning.",
      ),
    policy_path: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .default(null)
      .describe("A policy file under SMRITI_POLICY_DIR (docs/sessions.md 'Session policy')."),
    sandbox_mode: z
      .enum(["auto", "bubblewrap", "process"])
      .default("auto")
      .describe("Isolation asked for hooks and file tools; sandbox_notice says what was granted."),
    context_budget_tokens: z
      .number()
      .int()
      .min(512)
      .max(2_000_000)
      .optional()
      .describe("The model's context budget (default: per provider, docs/sessions.md 'Context')."),
    tool_timeout_ms: z
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(30_000)
      .describe("Each tool call, hooks included, ends as a timeout after this."),
  })
  .describe("A new chat session with the spec's session_state common fields.");
export type CreateChatSession = z.output<typeof CreateChatSession>;

export const ChatMessage = z.strictObject({
  session_id: SessionId,
  message: z.string().trim().min(1).max(20_000).describe("The user's message; starts a turn."),
});

export const ApprovalDecision = z.strictObject({
  session_id: SessionId,
  request_id: z.string().regex(/^apr_[0-9a-f-]{36}$/, "must be a request_id from approval_required"),
  decision: z.enum(["approve", "deny"]),
  note: z.string().max(2_000).optional().describe("Why, for the log."),
});

export const BranchRequest = z
  .strictObject({
    session_id: SessionId,
    from_event_id: EventId.optional(),
    resume_cursor: z.string().min(1).max(400).optional(),
  })
  .refine((b) => (b.from_event_id === undefined) !== (b.resume_cursor === undefined), {
    message: "give exactly one of from_event_id or resume_cursor",
  });

export const SessionRef = z.strictObject({ session_id: SessionId });

export const EventsStreamRequest = z.strictObject({
  session_id: SessionId,
  follow: z
    .stringbool()
    .default(true)
    .describe("false: send what is logged and end; true (default): stay open for new events."),
});

const ResumePoint = z.object({
  resume_cursor: z.string(),
  event_id: z.string(),
  kind: z.enum(["checkpoint", "approval", "turn"]),
  label: z.string(),
  at: z.iso.datetime(),
});

const Participant = z.object({
  id: z.string(),
  kind: z.enum(["runtime", "agent", "operator", "tool"]),
  label: z.string(),
});
const Envelope = z.object({
  event_id: z.string(),
  sender_id: z.string(),
  recipient_ids: z.array(z.string()),
  event_type: z.string(),
  summary: z.string(),
  payload: z.unknown(),
});
export const Channel = z.object({
  channel_id: z.string(),
  participants: z.array(Participant),
  envelopes: z.array(Envelope),
});
export type Channel = z.infer<typeof Channel>;

export const ChatSessionDetail = z.object({
  session: SessionState,
  last_event_id: z.string().describe("Follow from here with GET /sessions/{id}/events/stream and Last-Event-ID."),
  turns: z.number().int(),
  pending_approval: sessionEvents.approval_required.data.nullable(),
  resume_points: z
    .array(ResumePoint)
    .describe("Oldest first: resume_seed and other checkpoints, approvals, completed turns."),
  subagents: z
    .array(z.looseObject({ agent_id: z.string(), status: z.string() }))
    .describe("The latest snapshot of each delegated sub-agent."),
  background_artifacts: z
    .array(z.looseObject({ type: z.string() }))
    .describe("Typed artifacts the session produced (files it wrote)."),
  channel: Channel,
});
export type ChatSessionDetail = z.infer<typeof ChatSessionDetail>;

const events = Object.fromEntries(Object.entries(sessionEvents).map(([type, e]) => [type, e.data]));
const resume = "Resume after this event id (<session_id>/<seq>).";

export const sessionRoutes = {
  chat_session_create: op({
    scope: "write",
    method: "POST",
    path: "/chat/sessions",
    summary: "Create a chat session",
    tag: "sessions",
    input: CreateChatSession,
    output: SessionState,
  }),
  chat_session_get: op({
    scope: "read",
    method: "GET",
    path: "/chat/sessions/{session_id}",
    summary: "Chat session detail: state, resume points, sub-agents, artifacts, channel",
    tag: "sessions",
    input: SessionRef,
    output: ChatSessionDetail,
  }),
  chat_session_branch: op({
    scope: "write",
    method: "POST",
    path: "/chat/sessions/{session_id}/branch",
    summary: "Branch a new chat session from an event or a resume cursor",
    tag: "sessions",
    input: BranchRequest,
    output: ChatSessionDetail,
  }),
  chat_message: stream({
    scope: "write",
    method: "POST",
    path: "/chat/sessions/{session_id}/messages",
    summary:
      "Post a message: the turn streams back (first event `session`), until completed, error or an approval pause",
    input: ChatMessage,
    events,
    resume,
  }),
  chat_approval: stream({
    scope: "write",
    method: "POST",
    path: "/chat/sessions/{session_id}/approvals/{request_id}",
    summary: "Approve or deny a pending tool call: the paused turn goes on and streams back",
    input: ApprovalDecision,
    events,
    resume,
  }),
  agui_run: service({
    scope: "write",
    method: "POST",
    path: "/agui",
    summary:
      "An AG-UI run (RunAgentInput) on a chat session: the turn as AG-UI events over SSE (README 'AG-UI'); threadId names the session",
    auth: true,
    response: { description: "text/event-stream of AG-UI events", contentType: "text/event-stream" },
  }),
  session_events: stream({
    scope: "read",
    method: "GET",
    path: "/sessions/{session_id}/events/stream",
    summary: "Every event of a session (chat too), live",
    input: EventsStreamRequest,
    events,
    resume,
  }),
};
