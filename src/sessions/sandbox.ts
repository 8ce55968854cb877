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

/** Runs argv in the task workspace (created if need be) with `input` on stdin, under the sandbox; killed when `signal` aborts. */
export async function runSandboxed(sandbox: Sandbox, argv: readonly string[], dir: string, input: string, signal: AbortSignal): Promise<HookRun> {
  await mkdir(dir, { recursive: true });
  const [cmd, ...args] =
    sandbox.resolved === "bubblewrap"
      ? [bubblewrap().path!, ...BWRAP_ARGS, "--bind", dir, dir, "--chdir", dir, "--", ...argv]
      : argv;
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { cwd: dir, env: { PATH: "/usr/local/bin:/usr/bin:/bin" }, signal, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-500)));
    child.on("error", (err) => resolve({ ok: false, detail: err.message }));
    child.on("close", (code) => resolve({ ok: code === 0, detail: code === 0 ? "exit 0" : `exit ${code ?? "signal"}: ${stderr.trim()}` }));
    child.stdin.on("error", () => {}); // a hook that exits without reading its input
    child.stdin.end(input);
  });
}
