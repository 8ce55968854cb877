// A real `smriti serve` child on a scratch data directory (the tests' own starter), plus what the soak needs of it:
// its port, memory, a kill -9, and tokens made with the CLI as an operator would.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { BIN, ROOT, startServe as startServeChild, type RunningServe } from "../../test/cli/cli-helpers.ts";

export interface Serve extends RunningServe {
  port: number;
  /** Resident set size now, MB (from /proc). */
  rssMb(): number;
  kill9(): Promise<void>;
}

/** Lexical only and no tuner unless `extra` says otherwise: the soak is about the service, not the embedder. */
export function serveEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, SMRITI_EMBEDDER: "none", SMRITI_AUTOTUNE_MINUTES: "0", ...extra };
}

export async function startServe(dataDir: string, env: NodeJS.ProcessEnv = serveEnv()): Promise<Serve> {
  const srv = await startServeChild(dataDir, env);
  const { child } = srv;
  const exited = new Promise<void>((done) =>
    child.exitCode !== null || child.signalCode !== null ? done() : child.once("exit", () => done()),
  );
  return {
    ...srv,
    port: Number(new URL(srv.url).port),
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
    kill9: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Runs a `smriti` command on the data directory and returns its stdout (throws with stderr when it fails). */
export function cli(dataDir: string, args: readonly string[], env: NodeJS.ProcessEnv = serveEnv()): string {
  const res = spawnSync(process.execPath, [BIN, ...args, "--data", dataDir], { cwd: ROOT, env, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`smriti ${args.join(" ")} exited ${res.status}: ${res.stderr}`);
  return res.stdout;
}

/** A token for the workspace (created with the CLI, as an operator would), with every scope: the phases test what a
 * token may do past its scope checks (the route table's scopes have their own tests). */
export function issueToken(dataDir: string, workspace = "default", env?: NodeJS.ProcessEnv): string {
  return (
    JSON.parse(
      cli(dataDir, ["token", "create", "--workspace", workspace, "--scope", "read,write,execute,admin", "--json"], env),
    ) as { token: string }
  ).token;
}
