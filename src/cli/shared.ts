// Helpers every subcommand shares: data-dir options, runtime construction, output.
import type { Command } from "commander";
import { loadConfig, type Config } from "../config.ts";
import { createRuntime, type FullRuntime, type RuntimeOptions } from "../main.ts";
import { AppError } from "../contract/errors.ts";

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface DataOptions {
  data?: string;
}

export function addDataOption(cmd: Command): Command {
  return cmd.option("--data <dir>", "data directory (default $SMRITI_DATA_DIR or ./data)");
}

export function configFrom(opts: DataOptions & { port?: number; host?: string }): Config {
  return loadConfig(process.env, { data: opts.data, port: opts.port, host: opts.host });
}

/** Runs a one-shot command against the data directory directly (safe while the server runs: SQLite WAL). */
export async function withRuntime<T>(opts: DataOptions, fn: (rt: FullRuntime) => Promise<T>, runtimeOpts: RuntimeOptions = {}): Promise<T> {
  const rt = await createRuntime(configFrom(opts), { log: () => {}, ...runtimeOpts });
  try {
    return await fn(rt);
  } catch (err) {
    if (err instanceof AppError) throw new CliError(`${err.code}: ${err.message}`);
    throw err;
  } finally {
    await rt.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The workspace a CLI call acts in: resolved like a token would, so multi-tenancy rules still apply. */
export function workspaceCall(rt: FullRuntime, workspace: string) {
  const ws = rt.store.findWorkspace(workspace);
  if (!ws) throw new CliError(`no workspace '${workspace}'`);
  return { workspaceId: ws.id, workspaceName: ws.name, tokenId: "cli", actorId: "cli" };
}
