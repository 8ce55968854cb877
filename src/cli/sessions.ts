// `smriti sessions list|show|start|pause|resume|cancel|approve|deny`: background sessions from the terminal, against a
// running server (--url) or the data directory in-process (which queues; the server on that directory runs them).
import type { Command } from "commander";
import type { SmritiClient } from "../client/index.ts";
import type { BackgroundSessionDetail } from "../contract/background.ts";
import { addTargetOptions, withClient, type Target } from "./client-target.ts";
import { CliError, printJson } from "./shared.ts";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const out = (text: string) => process.stdout.write(text);

/** A detail as a person reads it: state, health, what it waits on, checkpoints and artifacts. */
function show(d: BackgroundSessionDetail): void {
  const s = d.session;
  out(`${s.session_id}  ${s.status}  engine ${s.engine}  attempt ${s.attempt_count}/${(s.max_retries ?? 0) + 1}\n`);
  out(`  task: ${d.task}\n`);
  out(
    `  health ${d.health.score.toFixed(2)}${Object.entries(d.health.flags)
      .filter(([, on]) => on)
      .map(([flag]) => ` [${flag}]`)
      .join("")}\n`,
  );
  if (s.last_error) out(`  last error: ${s.last_error}\n`);
  if (d.pending_approval)
    out(
      `  waits for: ${d.pending_approval.tool_name} (${d.pending_approval.reason}); request ${d.pending_approval.request_id}\n`,
    );
  for (const h of d.health.recovery_hints) out(`  hint: ${h}\n`);
  for (const c of d.checkpoints.slice(0, 5))
    out(`  checkpoint ${c.sequence} ${c.checkpoint_type}: ${c.summary_text}\n`);
  for (const a of d.artifacts.slice(0, 5))
    out(`  artifact ${a.type}${a.type === "final_output" ? `: ${String(a.text).trim().split("\n")[0]}` : ""}\n`);
}

const print = (opts: { json?: boolean }) => (d: BackgroundSessionDetail) => (opts.json ? printJson(d) : show(d));

/** Follows a session's health until it ends, then shows it. */
async function wait(client: SmritiClient, sessionId: string): Promise<BackgroundSessionDetail> {
  for await (const e of client.sessionHealth(sessionId))
    if (e.event === "health_snapshot" && TERMINAL.has(e.data.status)) break;
  return client.getSession(sessionId);
}

interface StartOptions extends Target {
  engine: string;
  agent?: string;
  param?: string[];
  command?: string;
  agentUrl?: string;
  maxRetries?: string;
  expiresAt?: string;
  approvalMode?: string;
  permissionMode?: string;
  health?: string;
  wait?: boolean;
}

function startBody(task: string, opts: StartOptions): Parameters<SmritiClient["startSession"]>[0] {
  let health: unknown;
  try {
    health = opts.health ? JSON.parse(opts.health) : undefined;
  } catch {
    throw new CliError('--health must be JSON, e.g. \'{"action":"pause","max_total_tokens":50000}\'');
  }
  return {
    task,
    engine: opts.engine as "native",
    ...(opts.agent ? { agent: opts.agent } : {}),
    ...(opts.param?.length ? { agent_params: paramsOf(opts.param) } : {}),
    ...(opts.command ? { command: ["sh", "-c", opts.command] } : {}),
    ...(opts.agentUrl ? { agent_url: opts.agentUrl } : {}),
    ...(opts.maxRetries ? { max_retries: Number(opts.maxRetries) } : {}),
    ...(opts.expiresAt ? { expires_at: opts.expiresAt } : {}),
    ...(opts.approvalMode ? { approval_mode: opts.approvalMode as "never" } : {}),
    ...(opts.permissionMode ? { permission_mode: opts.permissionMode as "read-only" } : {}),
    ...(health ? { metadata: { policy: { health: health as { action: "pause" } } } } : {}),
  };
}

function paramsOf(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((p) => {
      const at = p.indexOf("=");
      if (at < 1) throw new CliError(`--param takes name=value, not '${p}'`);
      return [p.slice(0, at), p.slice(at + 1)];
    }),
  );
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command("sessions")
    .description("background sessions: start, list, show, pause, resume, cancel, approve");
  addTargetOptions(sessions.command("list"))
    .description("sessions, newest first")
    .option("--status <status>", "only this status (running, paused, awaiting_approval, completed, failed, ...)")
    .option("--kind <kind>", "chat or background")
    .option("--limit <n>", "how many", "50")
    .option("--json", "print JSON")
    .action(async (opts: Target & { status?: string; kind?: string; limit: string }) =>
      withClient(opts, async (client) => {
        const page = await client.listSessions({
          ...(opts.status ? { status: opts.status as "running" } : {}),
          ...(opts.kind ? { kind: opts.kind as "chat" } : {}),
          limit: Number(opts.limit),
        });
        if (opts.json) return printJson(page);
        // The title last, its whitespace folded: it is free text, and the columns before it stay where scripts read them.
        for (const s of page.sessions) {
          const health = s.health ? s.health.score.toFixed(2) : "-";
          const title = (s.title ?? "").replace(/\s+/g, " ");
          out(
            `${s.session.session_id}\t${s.kind}\t${s.session.status}\t${health}\t${s.session.updated_at ?? ""}\t${title}\n`,
          );
        }
      }),
    );
  addTargetOptions(sessions.command("show"))
    .description("a background session: state, health, approvals, checkpoints, artifacts")
    .argument("<session_id>")
    .option("--json", "print JSON")
    .action(async (id: string, opts: Target) =>
      withClient(opts, async (client) => print(opts)(await client.getSession(id))),
    );
  addTargetOptions(sessions.command("start"))
    .description("start a background session for a task")
    .argument("<task...>")
    .option("--engine <engine>", "native (Smriti's agent), command or a2a", "native")
    .option("--agent <name>", "engines command and a2a: an agent of the operator's catalog")
    .option("--param <name=value...>", "a value for the catalog agent's argv placeholder (repeatable)")
    .option(
      "--command <line>",
      "engine command, where the catalog allows free-form use: the command line to run (sh -c)",
    )
    .option("--agent-url <url>", "engine a2a, where the catalog allows free-form use: the remote agent's URL")
    .option("--max-retries <n>", "retries after a transient failure (default 2)")
    .option("--expires-at <iso>", "fail it if it has not run by then")
    .option("--approval-mode <mode>", "never | on-write | always")
    .option("--permission-mode <mode>", "read-only | workspace-write | full")
    .option("--health <json>", 'metadata.policy.health, e.g. \'{"action":"pause","max_runtime_minutes":10}\'')
    .option(
      "--wait",
      "follow it until it ends (needs a server running it: --url, or smriti serve on the data directory)",
    )
    .option("--json", "print JSON")
    .action(async (task: string[], opts: StartOptions) =>
      withClient(opts, async (client) => {
        const started = await client.startSession(startBody(task.join(" "), opts));
        print(opts)(opts.wait ? await wait(client, started.session.session_id) : started);
      }),
    );
  for (const action of ["pause", "cancel"] as const)
    addTargetOptions(sessions.command(action))
      .description(action === "pause" ? "pause a running session (not terminal)" : "cancel a session (terminal)")
      .argument("<session_id>")
      .option("--json", "print JSON")
      .action(async (id: string, opts: Target) =>
        withClient(opts, async (client) =>
          print(opts)(await (action === "pause" ? client.pauseSession(id) : client.cancelSession(id))),
        ),
      );
  addTargetOptions(sessions.command("resume"))
    .description("requeue a paused session, or branch a new one from an event or a resume cursor")
    .argument("<session_id>")
    .option("--from-event <id>", "branch from this event id (<session_id>/<seq>)")
    .option("--cursor <cursor>", "branch from this resume cursor (a checkpoint's)")
    .option("--json", "print JSON")
    .action(async (id: string, opts: Target & { fromEvent?: string; cursor?: string }) =>
      withClient(opts, async (client) =>
        print(opts)(
          await client.resumeSession(id, {
            ...(opts.fromEvent ? { from_event_id: opts.fromEvent } : {}),
            ...(opts.cursor ? { resume_cursor: opts.cursor } : {}),
          }),
        ),
      ),
    );
  for (const decision of ["approve", "deny"] as const)
    addTargetOptions(sessions.command(decision))
      .description(`${decision} what a session waits on`)
      .argument("<session_id>")
      .argument("[request_id]", "default: the pending request")
      .option("--json", "print JSON")
      .action(async (id: string, requestId: string | undefined, opts: Target) =>
        withClient(opts, async (client) => {
          const pending = requestId ?? (await client.getSession(id)).pending_approval?.request_id;
          if (!pending) throw new CliError(`session ${id} waits for no approval`);
          print(opts)(await client.decideSessionApproval(id, pending, decision));
        }),
      );
}
