// What isolation hooks and file tools get, said honestly: bubblewrap when it is installed, else a plain child process.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";

export type SandboxMode = "auto" | "bubblewrap" | "process";

export interface Sandbox {
  requested: SandboxMode;
  resolved: "bubblewrap" | "process";
  isolation: string;
  reason: string;
}

const BWRAP_ARGS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent"];

/** bubblewrap's path when it is installed and can make its namespaces here (containers may forbid it); probed once. */
let usable: { path: string | null; why: string } | undefined;
function bubblewrap(): { path: string | null; why: string } {
  if (usable) return usable;
  const path = ["/usr/bin/bwrap", "/bin/bwrap"].find((p) => existsSync(p)) ?? null;
  if (!path) return (usable = { path: null, why: "bubblewrap is not installed (apt install bubblewrap)" });
  const probe = spawnSync(path, [...BWRAP_ARGS, "--", "/bin/true"], { timeout: 5_000 });
  return (usable = probe.status === 0 ? { path, why: `bubblewrap at ${path}` } : { path: null, why: `bubblewrap at ${path} cannot create namespaces here (${probe.stderr?.toString().trim() || "no detail"})` });
}

export function resolveSandbox(requested: SandboxMode): Sandbox {
  const bwrap = requested === "process" ? { path: null, why: "a plain child process was asked for" } : bubblewrap();
  if (bwrap.path) return { requested, resolved: "bubblewrap", isolation: "namespaces: no network, read-only root, only the task workspace writable", reason: bwrap.why };
  return { requested, resolved: "process", isolation: "weaker: a child process with the service's user rights, in the task workspace with an empty environment", reason: bwrap.why };
}

export interface HookRun {
  ok: boolean;
  detail: string;
}

export interface CommandRun {
  /** The exit status; null when it was killed or could not start. */
  code: number | null;
  stdout: string;
  /** The last 2,000 characters of stderr (or why it could not start). */
  stderr: string;
}

/** What a command may print before the rest is cut (a bridge's output is an artifact, not a stream). */
const MAX_STDOUT = 1_000_000;

/** Runs argv in the task workspace (created if need be) with `input` on stdin, under the sandbox; killed when `signal` aborts. */
export async function runCommand(sandbox: Sandbox, argv: readonly string[], dir: string, input: string, signal: AbortSignal): Promise<CommandRun> {
  await mkdir(dir, { recursive: true });
  const [cmd, ...args] =
    sandbox.resolved === "bubblewrap"
      ? [bubblewrap().path!, ...BWRAP_ARGS, "--bind", dir, dir, "--chdir", dir, "--", ...argv]
      : argv;
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { cwd: dir, env: { PATH: "/usr/local/bin:/usr/bin:/bin" }, signal, stdio: ["pipe", "pipe", "pipe"] });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (b: Buffer) => (stdout = (stdout + b.toString("utf8")).slice(0, MAX_STDOUT)));
    child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-2_000)));
    child.on("error", (err) => resolve({ code: null, stdout, stderr: err.message }));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {}); // a command that exits without reading its input
    child.stdin.end(input);
  });
}

/** A hook: runCommand, ok on exit 0, else the exit status and stderr's end. */
export async function runSandboxed(sandbox: Sandbox, argv: readonly string[], dir: string, input: string, signal: AbortSignal): Promise<HookRun> {
  const run = await runCommand(sandbox, argv, dir, input, signal);
  if (run.code === 0) return { ok: true, detail: "exit 0" };
  return { ok: false, detail: run.code === null && !signal.aborted ? run.stderr : `exit ${run.code ?? "signal"}: ${run.stderr.trim().slice(-500)}` };
}
