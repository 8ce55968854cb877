// The command bridge: runs a catalog agent's command line in the task workspace (the task on stdin), under the sandbox
// its entry requires. Exit 0 completes with stdout as the output; exit 75 (EX_TEMPFAIL) is a transient failure the
// supervisor retries; any other status fails the run with stderr's end. Best effort: no per-tool events.
import type { Execution } from "../policy/rules.ts";
import { clip } from "../log/projection.ts";
import type { PolicySource } from "../policy/policy.ts";
import { gate, notice, replan } from "./bridge.ts";
import type { BackgroundEngine, RunContext, RunOutcome } from "./engine.ts";

/** sysexits.h: "temporary failure; the user is invited to retry". */
export const EX_TEMPFAIL = 75;

export class CommandEngine implements BackgroundEngine {
  readonly id = "command";
  constructor(
    private readonly policies: PolicySource,
    private readonly execution: Execution,
  ) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    const planned = replan(ctx, this.execution, "command");
    if ("status" in planned) return planned;
    const { plan, sandbox } = planned;
    // A command can change anything in its workspace: it counts as a write.
    const stop = await gate(ctx, "command", true, this.policies);
    if (stop) return stop;
    await notice(ctx, sandbox);
    const limits = {
      network: plan.limits.network,
      env: plan.limits.env,
      readOnlyPaths: plan.limits.read_only_paths,
      timeoutMs: plan.limits.timeout_seconds * 1_000,
    };
    const run = await this.execution.isolation.run(
      sandbox,
      plan.argv,
      ctx.taskDir,
      ctx.resume.task,
      ctx.signal,
      limits,
    );
    if (ctx.signal.aborted) return { status: "stopped" };
    if (run.timedOut)
      return {
        status: "error",
        code: "command_timeout",
        message: `${plan.argv[0]} ran past its ${plan.limits.timeout_seconds} s limit and was killed`,
        transient: false,
      };
    if (run.code === 0) return { status: "completed", output: run.stdout, citations: 0 };
    const why = `${plan.argv[0]} ${run.code === null ? "could not run" : `exited with ${run.code}`}: ${clip(run.stderr.trim(), 500) || "no stderr"}`;
    return { status: "error", code: "command_failed", message: why, transient: run.code === EX_TEMPFAIL };
  }
}
