// The command bridge: runs an external agent's command line in the task workspace (the task on stdin), under the
// session's sandbox. Exit 0 completes with stdout as the output; exit 75 (EX_TEMPFAIL) is a transient failure the
// supervisor retries; any other status fails the run with stderr's end. Best effort: no per-tool events.
import { resolveSandbox, runCommand, type SandboxMode } from "../sandbox.ts";
import { clip } from "../projection.ts";
import type { PolicySource } from "../policy.ts";
import { gate, notice } from "./bridge.ts";
import type { BackgroundEngine, RunContext, RunOutcome } from "./engine.ts";

/** sysexits.h: "temporary failure; the user is invited to retry". */
export const EX_TEMPFAIL = 75;

export class CommandEngine implements BackgroundEngine {
  readonly id = "command";
  constructor(private readonly policies: PolicySource) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    const argv = ctx.resume.command!;
    // A command can change anything in its workspace: it counts as a write.
    const stop = await gate(ctx, "command", true, this.policies);
    if (stop) return stop;
    const sandbox = resolveSandbox(ctx.state.sandbox_mode as SandboxMode);
    await notice(ctx, sandbox);
    const run = await runCommand(sandbox, argv, ctx.taskDir, ctx.resume.task, ctx.signal);
    if (ctx.signal.aborted) return { status: "stopped" };
    if (run.code === 0) return { status: "completed", output: run.stdout, citations: 0 };
    const why = `${argv[0]} ${run.code === null ? "could not run" : `exited with ${run.code}`}: ${clip(run.stderr.trim(), 500) || "no stderr"}`;
    return { status: "error", code: "command_failed", message: why, transient: run.code === EX_TEMPFAIL };
  }
}
