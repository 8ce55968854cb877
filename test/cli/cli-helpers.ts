// Runs the real `smriti` command as a child process or in this one, and a real server, for the CLI tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childPids } from "../../bench/lib/proc.ts";

export const BIN = fileURLToPath(new URL("../../bin/smriti.js", import.meta.url));
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Lexical-only unless a test says otherwise, so tests need no vectors. */
export const cliEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  SMRITI_EMBEDDER: "none",
  ...extra,
});

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** On the PostgreSQL pass, a data directory a test service made names its schema (test/helpers/runtime.ts): use it too. */
function withTestDatabase(args: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const data = args.includes("--data") ? args[args.indexOf("--data") + 1] : env["SMRITI_DATA_DIR"];
  const file = data && join(data, "test-database-url");
  return file && existsSync(file) ? { ...env, SMRITI_DATABASE_URL: readFileSync(file, "utf8") } : env;
}

/** `input`, when given, is written to the command's stdin (then closed). */
export function runCli(
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: withTestDatabase(args, opts.env ?? cliEnv()),
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let hereQueue: Promise<unknown> = Promise.resolve();

/**
 * The CLI run in this process, as bin/smriti.js runs it (src/cli/program.ts): the same command, arguments, environment,
 * working directory, output and exit code as `runCli` without a Node start (0.9-1.5 s of CPU each). It borrows the
 * process's env, cwd, stdout and stderr while it runs, so runs queue one after another; stdin is not given (a command
 * reading it, `serve` and `mcp`, and what only a process shows, exits and signals, stay with `runCli`).
 */
export function runCliHere(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const run = hereQueue.then(() => runHere(args, opts));
  hereQueue = run.catch(() => {});
  return run;
}

async function runHere(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const { runSmriti } = await import("../../src/cli/program.ts");
  const out = { stdout: "", stderr: "" };
  const borrowed = { env: process.env, cwd: process.cwd(), exitCode: process.exitCode };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (stream: "stdout" | "stderr") =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      out[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  process.env = withTestDatabase(args, opts.env ?? cliEnv());
  process.chdir(opts.cwd ?? ROOT);
  process.exitCode = undefined;
  process.stdout.write = capture("stdout");
  process.stderr.write = capture("stderr");
  try {
    const code = await runSmriti(args);
    return { code: code || Number(process.exitCode ?? 0), ...out };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    process.exitCode = borrowed.exitCode;
    process.chdir(borrowed.cwd);
    process.env = borrowed.env;
  }
}

/** Runs the CLI (a child process, or `runCliHere`) and parses its stdout as JSON, failing loudly when it exits non-zero. */
export async function runJson<T = Record<string, unknown>>(
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  run: (args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }) => Promise<CliResult> = runCli,
): Promise<T> {
  const res = await run(args, opts);
  if (res.code !== 0) throw new Error(`smriti ${args.join(" ")} exited ${res.code}:\n${res.stderr}\n${res.stdout}`);
  return JSON.parse(res.stdout) as T;
}

/** Whether the process is still running (a zombie waiting to be reaped is not). */
export function processAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Whether the process leads a process group of its own: a command a session ran (spawned detached), not a session process. */
function leadsOwnGroup(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === pid; // the fields after the name: state ppid pgrp
  } catch {
    return false;
  }
}

/** What `smriti serve` logs when a session process it started answers; the group is its pid. */
export const SESSION_PROCESS_READY = /session routes: answered by process (\d+)/;

/** The session processes a server's log says it started, in order. */
export const sessionPids = (log: string): number[] =>
  [...log.matchAll(new RegExp(SESSION_PROCESS_READY, "g"))].map((m) => Number(m[1]));

export interface RunningServe {
  url: string;
  child: ChildProcess;
  /** What the server wrote to stderr (its log) so far. */
  log(): string;
  /** The session process it started last (null with SMRITI_SESSION_PROCESS=0, or before sessions were used). */
  readonly sessionPid: number | null;
  stop(): Promise<void>;
  /**
   * kill -9 of the serving process; resolves once it and its session process (which follows it at once) are gone. A
   * command a run started is left running, as a kill -9 leaves it (waiting for a `sleep 30` took 30 s a test).
   */
  kill(): Promise<void>;
}

/** `smriti serve --port 0`; resolves once it logs "listening on http://127.0.0.1:PORT". */
/** `startMs`: how long it may take to listen (the bench's 1M-chunk vault reads every row for minutes). */
export function startServe(
  dataDir: string,
  env: NodeJS.ProcessEnv = cliEnv(),
  args: readonly string[] = [],
  startMs = 60_000,
): Promise<RunningServe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data", dataDir, ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const timer = setTimeout(() => fail(new Error(`server did not start in time:\n${stderr}`)), startMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(err);
    };
    child.stdout.resume();
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (!m?.[1]) return;
      clearTimeout(timer);
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
        });
      const sessionPid = () => sessionPids(stderr).at(-1) ?? null;
      const kill = async () => {
        // A session process, ready or starting (a command's own group is not one).
        const children = child.exitCode === null ? childPids(child.pid!).filter((pid) => !leadsOwnGroup(pid)) : [];
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGKILL");
        await exited;
        while (children.some(processAlive)) await new Promise((r) => setTimeout(r, 20));
      };
      resolve({
        url: m[1],
        child,
        log: () => stderr,
        get sessionPid() {
          return sessionPid();
        },
        stop,
        kill,
      });
    });
    child.on("exit", (code) => fail(new Error(`server exited ${code} before listening:\n${stderr}`)));
    child.on("error", fail);
  });
}

/** Waits until the server's log matches `pattern` (within `ms`); the first group of its last match, or the match. */
export async function untilLogged(server: RunningServe, pattern: RegExp, ms = 30_000): Promise<string> {
  const all = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 25))) {
    const last = [...server.log().matchAll(all)].at(-1);
    if (last) return last[1] ?? last[0];
    if (Date.now() > end) throw new Error(`timed out waiting for ${pattern} in the log:\n${server.log()}`);
  }
}

/** `runJson` in this process (`runCliHere`). */
export const runJsonHere = <T = Record<string, unknown>>(
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<T> => runJson<T>(args, opts, runCliHere);
