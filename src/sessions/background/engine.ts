// What runs a background session's task: the native harness or a bridge to another agent. The supervisor owns the
// session's status around a run; an engine runs once and says how it ended.
import type { SessionEventData } from "../../contract/events.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { MIGRATED_TOKEN_SCOPES, type Scope } from "../../contract/scopes.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { TurnOutcome } from "../turn/turn-state.ts";
import type { Emit, SessionEventItem } from "../log/session-log.ts";

export type State = SessionEventData<"session_state">;

/** What a background session keeps to run again after a restart (its session_state's resume_context). */
export interface ResumeContext {
  task: string;
  actor_id: string | null;
  token_id: string;
  workspace_name: string;
  /** The starting token's scopes, which the run acts with; absent in sessions started before scopes existed. */
  scopes?: Scope[] | undefined;
  /** The catalog entry it runs (engines command and a2a), with the values of its argv placeholders. */
  agent?: string | undefined;
  agent_params?: Record<string, string> | undefined;
  /** A free-form argv or URL, where the catalog allowed it. */
  command?: string[] | undefined;
  agent_url?: string | undefined;
  /** A branch taken inside an unfinished turn of its source goes on with that turn. */
  continue_turn_id?: string | undefined;
  /** The start request's metadata: the health policy (policy.health, policy.enforcement) and labels. */
  metadata: { policy: unknown; labels?: Record<string, string> | undefined };
}

export interface RunContext {
  call: CallContext;
  sessionId: string;
  /** The run's state: status running, attempt_count counted, this process's id. */
  state: State;
  resume: ResumeContext;
  /** The session's log as the run found it. */
  events: readonly StreamEvent[];
  emit: Emit;
  /** Aborts when the supervisor stops the run (pause, cancel, a health budget, shutdown). */
  signal: AbortSignal;
  taskDir: string;
  /** Logs a checkpoint at the log's end (a bridge keeps its remote run id this way). */
  checkpoint(type: string, status: string, summary: string, extras?: CheckpointExtras): Promise<void>;
  /**
   * Logs the run's wait for an approval (the request and the waiting state, in one write) while the session is still
   * this run's; false when another process ended or paused it meanwhile (the run then stops, writing nothing more).
   */
  awaitApproval(items: SessionEventItem[]): Promise<boolean>;
}

export interface CheckpointExtras {
  /** A typed artifact the checkpoint persists. */
  artifact?: { type: string } & Record<string, unknown>;
  /** The budgets a health pause paused for. */
  budgets?: string[];
  /** Where the checkpoint resumes from, when not the log's end (a branch's seed points into its source). */
  cursor?: string;
}

/** How the run ended; a completed one says what it produced. */
export type RunOutcome =
  Exclude<TurnOutcome, { status: "completed" }> | { status: "completed"; output: string; citations: number };

export interface BackgroundEngine {
  readonly id: string;
  run(ctx: RunContext): Promise<RunOutcome>;
}

export const resumeContextOf = (state: State) => state.resume_context as ResumeContext;

export const callOf = (state: State, resume: ResumeContext): CallContext => ({
  workspaceId: state.workspace_id!,
  workspaceName: resume.workspace_name,
  tokenId: resume.token_id,
  actorId: resume.actor_id,
  // A session from before scopes was started by a token the migration left with these.
  scopes: resume.scopes ?? MIGRATED_TOKEN_SCOPES,
});
