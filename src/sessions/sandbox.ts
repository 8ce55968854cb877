// What isolation hooks and file tools get, said honestly: bubblewrap when it is installed, else a plain child process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";

export type SandboxMode = "auto" | "bubblewrap" | "process";

export interface Sandbox {
  requested: SandboxMode;
  resolved: "bubblewrap" | "process";
  isolation: string;
  reason: string;
}

const BWRAP = ["/usr/bin/bwrap", "/bin/bwrap"].find((p) => existsSync(p)) ?? null;

export function resolveSandbox(requested: SandboxMode, bwrap: string | null = BWRAP): Sandbox {
  if (requested !== "process" && bwrap)
    return { requested, resolved: "bubblewrap", isolation: "namespaces: no network, read-only root, only the task workspace writable", reason: `bubblewrap found at ${bwrap}` };
  const reason = requested === "process" ? "a plain child process was asked for" : "bubblewrap is not installed (apt install bubblewrap)";
  return { requested, resolved: "process", isolation: "weaker: hooks run as the service's user in the task workspace with an empty environment; file tools are path-confined", reason };
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
      ? [BWRAP!, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", dir, dir, "--unshare-all", "--die-with-parent", "--chdir", dir, "--", ...argv]
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
