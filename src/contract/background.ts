// Background sessions (SPEC "Background session", "Health snapshot and health policy", "Session routes"): start one,
// list, read, pause, resume or branch, cancel, decide its approvals, follow its health, as rows of the route table.
import { z } from "zod";
import { op, stream } from "./route.ts";
import { ApprovalDecision, Channel, CreateChatSession, EventId, SessionRef } from "./sessions.ts";
import { SessionState, sessionEvents } from "./events.ts";
import { HealthPolicy, HealthSnapshot } from "./health.ts";

/** Every status a session row takes; the spec names six, queued and cancelled are this service's (README). */
export const SessionStatus = z.enum([
  "idle",
  "queued",
  "running",
  "recovering",
  "awaiting_approval",
  "paused",
  "completed",
  "failed",
  "cancelled",
]);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const Engine = z.enum(["native", "command", "a2a"]);

export const StartBackgroundSession = CreateChatSession.extend({
  task: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe("What the session is to do; the native engine takes it as its one message."),
  agent_profile: z.string().min(1).max(64).default("background-agent"),
  engine: Engine.default("native").describe("native: Smriti's harness; command and a2a: best-effort bridges (README)."),
  agent: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("engines command and a2a: the name of an agent in the operator's catalog (README 'Security model')."),
  agent_params: z
    .record(z.string().max(64), z.string().max(4_000))
    .optional()
    .describe("Values for the catalog agent's argv placeholders, each checked against its pattern."),
  command: z
    .array(z.string().min(1).max(4_000))
    .min(1)
    .max(64)
    .optional()
    .describe(
      "engine command, where the catalog allows free-form use: the argv run in the task workspace (the task on stdin).",
    ),
  agent_url: z
    .url({ protocol: /^https?$/ })
    .max(2_000)
    .optional()
    .describe("engine a2a, where the catalog allows free-form use: the remote agent's base URL on an allowed host."),
  max_retries: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(2)
    .describe("Runs after a transient failure before the session fails."),
  expires_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "A run not started or recovered by then fails as expired; one already past fails at once (an expired checkpoint).",
    ),
  metadata: z
    .strictObject({
      policy: HealthPolicy.default({ health: { action: "pause" }, enforcement: { mode: "enforce" } }),
      labels: z.record(z.string().max(64), z.string().max(200)).optional(),
    })
    .default({ policy: { health: { action: "pause" }, enforcement: { mode: "enforce" } } }),
})
  .refine((b) => b.engine !== "command" || (b.agent === undefined) !== (b.command === undefined), {
    message: "engine command takes one of agent (a catalog entry) or command",
    path: ["agent"],
  })
  .refine((b) => b.engine !== "a2a" || (b.agent === undefined) !== (b.agent_url === undefined), {
    message: "engine a2a takes one of agent (a catalog entry) or agent_url",
    path: ["agent"],
  })
  .refine((b) => b.engine !== "native" || (b.agent ?? b.command ?? b.agent_url) === undefined, {
    message: "agent, command and agent_url go with engines command and a2a",
    path: ["engine"],
  })
  .refine((b) => b.engine === "command" || b.command === undefined, {
    message: "command goes with engine command only",
    path: ["command"],
  })
  .refine((b) => b.engine === "a2a" || b.agent_url === undefined, {
    message: "agent_url goes with engine a2a only",
    path: ["agent_url"],
  })
  .refine((b) => b.agent_params === undefined || b.agent !== undefined, {
    message: "agent_params go with agent",
    path: ["agent_params"],
  })
  .describe("A background session: a task run under the supervisor with no person in the loop but for approvals.");
export type StartBackgroundSession = z.output<typeof StartBackgroundSession>;

export const ResumeRequest = z
  .strictObject({
    session_id: SessionRef.shape.session_id,
    from_event_id: EventId.optional(),
    resume_cursor: z.string().min(1).max(400).optional(),
  })
  .refine((b) => b.from_event_id === undefined || b.resume_cursor === undefined, {
    message: "give at most one of from_event_id or resume_cursor",
  });

export const SessionListRequest = z.strictObject({
  status: SessionStatus.optional(),
  kind: z.enum(["chat", "background"]).optional().describe("Only chat or only background sessions (default both)."),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const Checkpoint = sessionEvents.session_checkpoint.data.extend({ event_id: z.string(), at: z.iso.datetime() });
const Artifact = z.looseObject({ type: z.string(), event_id: z.string() });

export const BackgroundSessionDetail = z.object({
  session: SessionState,
  last_event_id: z.string(),
  task: z.string(),
  policy: HealthPolicy,
  pending_approval: sessionEvents.approval_required.data.nullable(),
  checkpoints: z.array(Checkpoint).describe("Newest first (the latest 50)."),
  artifacts: z.array(Artifact).describe("Task graph, task workspace, run records, final output, files: newest first."),
  health: HealthSnapshot,
  channel: Channel,
});
export type BackgroundSessionDetail = z.infer<typeof BackgroundSessionDetail>;

export const SessionSummary = z.object({
  session: SessionState,
  kind: z.enum(["chat", "background"]),
  title: z
    .string()
    .nullable()
    .describe(
      "What the session is about, at most 200 characters: a chat's first message, a background session's task, a sub-agent's question; null before a chat's first message.",
    ),
  delegated_by: z
    .string()
    .nullable()
    .describe(
      "The session whose `delegate` tool call started this sub-agent session; null for any other (a branch names its parent in session.parent_session_id).",
    ),
  health: HealthSnapshot.nullable().describe("Background sessions only."),
});
export const SessionList = z.object({ sessions: z.array(SessionSummary), next_cursor: z.string().nullable() });
export type SessionList = z.infer<typeof SessionList>;

export const backgroundRoutes = {
  session_start: op({
    scope: "write",
    method: "POST",
    path: "/sessions",
    summary: "Start a background session",
    tag: "sessions",
    input: StartBackgroundSession,
    output: BackgroundSessionDetail,
  }),
  session_list: op({
    scope: "read",
    method: "GET",
    path: "/sessions",
    summary: "List sessions (chat and background), newest first",
    tag: "sessions",
    input: SessionListRequest,
    output: SessionList,
  }),
  session_get: op({
    scope: "read",
    method: "GET",
    path: "/sessions/{session_id}",
    summary: "Background session detail: row, checkpoints, artifacts, health, channel",
    tag: "sessions",
    input: SessionRef,
    output: BackgroundSessionDetail,
  }),
  session_pause: op({
    scope: "write",
    method: "POST",
    path: "/sessions/{session_id}/pause",
    summary: "Pause a background session (not terminal)",
    tag: "sessions",
    input: SessionRef,
    output: BackgroundSessionDetail,
  }),
  session_resume: op({
    scope: "write",
    method: "POST",
    path: "/sessions/{session_id}/resume",
    summary: "Requeue a paused session, or branch a new one from from_event_id or resume_cursor",
    tag: "sessions",
    input: ResumeRequest,
    output: BackgroundSessionDetail,
  }),
  session_cancel: op({
    scope: "write",
    method: "POST",
    path: "/sessions/{session_id}/cancel",
    summary: "Cancel a background session (terminal)",
    tag: "sessions",
    input: SessionRef,
    output: BackgroundSessionDetail,
  }),
  session_approval: op({
    scope: "admin",
    method: "POST",
    path: "/sessions/{session_id}/approvals/{request_id}",
    summary: "Approve or deny what a background session waits on",
    tag: "sessions",
    input: ApprovalDecision,
    output: BackgroundSessionDetail,
  }),
  session_health: stream({
    scope: "read",
    method: "GET",
    path: "/sessions/{session_id}/health/stream",
    summary: "The session's health snapshot, sent again whenever it changes (and only then)",
    input: SessionRef,
    events: { health_snapshot: HealthSnapshot },
    resume: "The last snapshot's id; the stream sends the current snapshot again only if it differs.",
  }),
};
