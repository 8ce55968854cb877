// Where hooks and bridged commands run, failing closed (issue 39): bubblewrap when the host can give it; the weaker
// plain child process only where the operator turned it on by name; otherwise nothing runs and the request is refused.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { chown, mkdir, open } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { AppError } from "../../contract/errors.ts";

export type SandboxMode = "auto" | "bubblewrap" | "process";

export interface Sandbox {
  requested: SandboxMode;
  /** none: nothing may execute (no bubblewrap here, and the weaker mode is not turned on); remote: an A2A agent runs it. */
  resolved: "bubblewrap" | "process" | "none" | "remote";
  isolation: string;
  reason: string;
}

/** What a command may reach besides its task workspace. */
export interface RunLimits {
  network: boolean;
  env: Readonly<Record<string, string>>;
  /** Host paths shown read-only although they are hidden (a catalog entry's read_only_paths). */
  readOnlyPaths: readonly string[];
  timeoutMs: number;
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
  timedOut: boolean;
}

/** nobody: a command the service starts as root runs as this uid and gid instead. */
const NOBODY = 65534;
const PATH = "/usr/local/bin:/usr/bin:/bin";
/** What a command may print before the rest is cut (a bridge's output is an artifact, not a stream). */
const MAX_STDOUT = 1_000_000;
const BASE = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-all",
  "--unshare-user",
  "--die-with-parent",
  "--new-session",
];

const BUBBLEWRAP =
  "namespaces: an unprivileged user, no network unless allowed, read-only system, the data directory and homes hidden, only the task workspace writable";
const PROCESS =
  "weaker: a plain child process in the task workspace with an empty environment; it can read what the service's user can, reach the network and the service, and a child that leaves its process group outlives a stop";

/** The host's isolation: probes bubblewrap once and runs commands under what a session resolved. */
export class Isolation {
  private probed: { path: string | null; why: string } | undefined;

  constructor(
    /** Host paths no command may see: the data directory, the catalog, the policy directory. */
    private readonly hidden: readonly string[],
    /** Where bubblewrap may be, first found first. */
    private readonly bwrapPaths: readonly string[],
    /** Where task workspaces live: bubblewrap, started as nobody, must be able to walk the path to them. */
    private readonly taskRoot: string,
  ) {}

  /** bubblewrap's path when it is installed and can make its namespaces here (containers may forbid them). */
  bubblewrap(): { path: string | null; why: string } {
    if (this.probed) return this.probed;
    const path = this.bwrapPaths.find((p) => existsSync(p)) ?? null;
    if (!path) return (this.probed = { path: null, why: "bubblewrap is not installed (apt install bubblewrap)" });
    const probe = spawnSync(path, [...BASE, "--", "/bin/true"], { timeout: 5_000, ...asNobody() });
    const detail = probe.stderr?.toString().trim() || probe.error?.message || "no detail";
    if (probe.status !== 0)
      return (this.probed = { path: null, why: `bubblewrap at ${path} cannot create namespaces here (${detail})` });
    const closed = process.getuid?.() === 0 ? unsearchable(this.taskRoot) : null;
    if (closed)
      return (this.probed = {
        path: null,
        why: `bubblewrap runs as nobody and cannot walk to the task workspaces: ${closed} is not searchable by others (chmod o+x ${closed})`,
      });
    return (this.probed = { path, why: `bubblewrap at ${path}` });
  }

  /**
   * The sandbox a session gets, or 400 sandbox_unavailable: asking for bubblewrap where it cannot run, or for the
   * weaker mode where the operator has not turned it on, is refused, never run weaker. `needed`: the session will
   * execute something (a command, hooks); without it, a host that can give neither resolves to none.
   */
  resolve(requested: SandboxMode, opts: { allowProcess: boolean; needed: boolean }): Sandbox {
    const bwrap = requested === "process" ? null : this.bubblewrap();
    if (bwrap?.path) return { requested, resolved: "bubblewrap", isolation: BUBBLEWRAP, reason: bwrap.why };
    if (requested === "bubblewrap")
      throw new AppError("sandbox_unavailable", `bubblewrap was asked for and cannot run here: ${bwrap!.why}`);
    if (opts.allowProcess)
      return {
        requested,
        resolved: "process",
        isolation: PROCESS,
        reason:
          requested === "process"
            ? "the process sandbox was asked for; the operator turned it on"
            : `${bwrap!.why}; the operator turned on the process sandbox`,
      };
    if (requested === "process")
      throw new AppError(
        "sandbox_unavailable",
        "the weaker process sandbox was asked for and the operator has not turned it on",
      );
    const why = `${bwrap!.why}, and the operator has not turned on the weaker process sandbox`;
    if (opts.needed) throw new AppError("sandbox_unavailable", `nothing can run isolated here: ${why}`);
    return { requested, resolved: "none", isolation: "none: nothing may execute in this session", reason: why };
  }

  /** Runs argv in the task workspace with `input` on stdin; the whole process tree is killed on abort or timeout. */
  async run(
    sandbox: Sandbox,
    argv: readonly string[],
    dir: string,
    input: string,
    signal: AbortSignal,
    limits: RunLimits,
  ): Promise<CommandRun> {
    if (sandbox.resolved === "none" || sandbox.resolved === "remote")
      return { code: null, stdout: "", stderr: `refused: ${sandbox.reason}`, timedOut: false };
    await mkdir(dir, { recursive: true });
    if (process.getuid?.() === 0) await chown(dir, NOBODY, NOBODY); // the unprivileged user writes its workspace
    const env = { PATH, HOME: dir, LANG: "C.UTF-8", ...limits.env };
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const stop = AbortSignal.any([signal, timeout]);
    if (sandbox.resolved === "process") return spawnTree(argv, { cwd: dir, env, input, stop, timeout, extra: [] });
    // The workspace goes in as an open descriptor, at its own path inside the hidden data directory: nobody may not be
    // able to walk that path on the host.
    const bwrap = this.bubblewrap().path;
    if (!bwrap) return { code: null, stdout: "", stderr: `refused: ${this.bubblewrap().why}`, timedOut: false };
    const handle = await open(dir, "r");
    try {
      const args = [...BASE, ...this.hides(limits), "--bind-fd", "3", dir, "--chdir", dir, "--", ...argv];
      return await spawnTree([bwrap, ...args], { cwd: "/", env, input, stop, timeout, extra: [handle.fd] });
    } finally {
      await handle.close();
    }
  }

  /** A policy hook: run like a command until `signal` (the call's timeout) aborts; ok on exit 0, else why not. */
  async hook(
    sandbox: Sandbox,
    argv: readonly string[],
    dir: string,
    input: string,
    signal: AbortSignal,
  ): Promise<HookRun> {
    const run = await this.run(sandbox, argv, dir, input, signal, {
      network: false,
      env: {},
      readOnlyPaths: [],
      timeoutMs: 2 ** 31 - 1,
    });
    if (run.code === 0) return { ok: true, detail: "exit 0" };
    return {
      ok: false,
      detail:
        run.code === null && !signal.aborted
          ? run.stderr
          : `exit ${run.code ?? "signal"}: ${run.stderr.trim().slice(-500)}`,
    };
  }

  /** The mounts that hide what a command must not see, then show what its entry allows. */
  private hides(limits: RunLimits): string[] {
    const args: string[] = limits.network ? ["--share-net"] : ["--tmpfs", "/run"];
    for (const p of ["/home", "/root", ...this.hidden]) {
      if (!existsSync(p)) continue;
      args.push(...(isDirectory(p) ? ["--tmpfs", p] : ["--ro-bind", "/dev/null", p]));
    }
    for (const p of limits.readOnlyPaths) if (existsSync(p)) args.push("--ro-bind", p, p);
    return args;
  }
}

/** Spawns in a process group of its own and kills the whole group when `stop` aborts. */
function spawnTree(
  argv: readonly string[],
  o: {
    cwd: string;
    env: Record<string, string>;
    input: string;
    stop: AbortSignal;
    timeout: AbortSignal;
    extra: number[];
  },
): Promise<CommandRun> {
  return new Promise((resolve) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd!, args, {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", ...o.extra],
      ...asNobody(),
    });
    let [stdout, stderr] = ["", ""];
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    if (o.stop.aborted) kill();
    o.stop.addEventListener("abort", kill, { once: true });
    child.stdout!.on("data", (b: Buffer) => (stdout = (stdout + b.toString("utf8")).slice(0, MAX_STDOUT)));
    child.stderr!.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-2_000)));
    const done = (code: number | null, why?: string) => {
      o.stop.removeEventListener("abort", kill);
      kill(); // what the command left running in its group goes with it
      resolve({ code, stdout, stderr: why ?? stderr, timedOut: o.timeout.aborted });
    };
    child.on("error", (err) => done(null, err.message));
    child.on("close", (code) => done(o.stop.aborted ? null : code));
    child.stdin!.on("error", () => {}); // a command that exits without reading its input
    child.stdin!.end(o.input);
  });
}

/** A service running as root starts its commands as nobody. */
const asNobody = () => (process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {});

/** The first directory on the way to `dir` (created if need be) that others may not pass through; null when none. */
function unsearchable(dir: string): string | null {
  mkdirSync(dir, { recursive: true });
  for (let d = resolve(dir); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return d;
    if (d === dirname(d)) return null;
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
