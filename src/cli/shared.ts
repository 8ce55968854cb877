// Helpers every subcommand shares: data-dir options, runtime construction, output. The runtime and the transports are
// imported by the action that needs them, so listing commands or asking for help loads almost nothing.
import type { Command } from "commander";
import { existsSync } from "node:fs";
import { loadConfig, type Config } from "../config.ts";
import type { FullRuntime, RuntimeOptions } from "../main.ts";
import { AppError } from "../contract/errors.ts";
import { ALL_SCOPES } from "../contract/scopes.ts";
import type { CallContext } from "../ports/call-context.ts";

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

/** How to name another data directory, for messages about the wrong one. */
export const POINT_ELSEWHERE = "pass --data <dir> or set SMRITI_DATA_DIR";

/** Fails with where it looked and how to point elsewhere when the data directory holds no database yet. */
export function requireData(config: Config): void {
  if (!config.databaseUrl && !existsSync(config.dbFile))
    throw new CliError(
      `no Smriti data in ${config.dataDir}: the CLI reads the data directory directly (the service's is where it was started); ${POINT_ELSEWHERE}`,
    );
}

export function configFrom(opts: DataOptions & { port?: number; host?: string; workers?: number }): Config {
  return loadConfig(process.env, { data: opts.data, port: opts.port, host: opts.host, workers: opts.workers });
}

/**
 * Runs a one-shot command against the data directory directly (safe while the server runs: SQLite WAL). Only commands
 * that put data in (`create`) may start a new directory: a read in the wrong folder would otherwise answer from an empty one.
 */
export async function withRuntime<T>(
  opts: DataOptions,
  fn: (rt: FullRuntime) => Promise<T>,
  runtimeOpts: RuntimeOptions = {},
  create = false,
): Promise<T> {
  const config = configFrom(opts);
  if (!create) requireData(config);
  const { createRuntime } = await import("../main.ts"); // loaded by the commands that need it, not by --help
  const rt = await createRuntime(config, {
    log: () => {},
    notice: (msg) => process.stderr.write(`[smriti] ${msg}\n`),
    ...runtimeOpts,
  });
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
export async function workspaceCall(rt: FullRuntime, workspace: string): Promise<CallContext> {
  const ws = await rt.store.workspaces.findWorkspace(workspace);
  if (!ws) throw new CliError(`no workspace '${workspace}'`);
  // The CLI holds the data itself: it may do anything a token could.
  return { workspaceId: ws.id, workspaceName: ws.name, tokenId: "cli", actorId: "cli", scopes: ALL_SCOPES };
}
