// Where a client command talks to: a running server when --url is given (token from SMRITI_TOKEN), else the data directory in-process.
import type { Command } from "commander";
import { createClient, SmritiError, type SmritiClient } from "../client/index.ts";
import { addDataOption, CliError, configFrom, requireData, type DataOptions } from "./shared.ts";

export interface Target extends DataOptions {
  url?: string;
  workspace: string;
  json?: boolean;
}

export async function withClient<T>(opts: Target, fn: (client: SmritiClient) => Promise<T>): Promise<T> {
  const token = process.env.SMRITI_TOKEN;
  if (opts.url && !token) throw new CliError("set SMRITI_TOKEN to a token of the server's workspace to use --url");
  if (!opts.url) requireData(configFrom(opts));
  const createLocalClient = opts.url ? null : (await import("../local-client.ts")).createLocalClient;
  const local = !createLocalClient
    ? null
    : await createLocalClient({ dataDir: opts.data, workspace: opts.workspace }).catch((err: Error) =>
        Promise.reject(new CliError(err.message)),
      );
  try {
    return await fn(local ?? createClient({ baseUrl: opts.url!, token: token! }));
  } catch (err) {
    if (err instanceof SmritiError) throw new CliError(`${err.code}: ${err.message}`);
    throw err;
  } finally {
    await local?.close();
  }
}

/** --url, --workspace and --data on a command that runs through withClient. */
export const addTargetOptions = (cmd: Command) =>
  addDataOption(cmd)
    .option("--url <url>", "use a running server instead (token from $SMRITI_TOKEN)")
    .option("--workspace <name>", "workspace (in-process only; a token fixes it)", "default");
