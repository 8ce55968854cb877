// The `smriti` command line: one subcommand per file, registered here, in a program built fresh for each run (bin/smriti.js
// runs one on process.argv; the CLI tests run theirs in-process too, where a process would show nothing more).
import { Command, CommanderError } from "commander";
import { VERSION } from "../version.ts";
import { registerServe } from "./serve.ts";
import { registerToken } from "./token.ts";
import { registerIngest } from "./ingest.ts";
import { registerRecall } from "./recall.ts";
import { registerForget } from "./forget.ts";
import { registerMcp } from "./mcp.ts";
import { registerAudit } from "./audit.ts";
import { registerProposals } from "./proposals.ts";
import { registerCognitive } from "./cognitive.ts";
import { registerChat } from "./chat.ts";
import { registerSessions } from "./sessions.ts";
import { CliError } from "./shared.ts";

function smritiProgram(): Command {
  // Commander's own exits (--help, --version, a usage error) become errors with their code, so a run always returns.
  const program = new Command("smriti")
    .version(VERSION)
    .description("Memory and grounded retrieval for AI agents")
    .exitOverride();
  for (const register of [
    registerServe,
    registerToken,
    registerIngest,
    registerRecall,
    registerForget,
    registerMcp,
    registerAudit,
    registerProposals,
    registerCognitive,
    registerChat,
    registerSessions,
  ])
    register(program);
  return program;
}

/**
 * Runs the command `args` names (what follows `smriti`) and resolves to its exit code once its action returns (`serve`
 * and `mcp` return while they serve). A failure is written to stderr; a command may also set process.exitCode itself.
 */
export async function runSmriti(args: readonly string[]): Promise<number> {
  try {
    await smritiProgram().parseAsync([...args], { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander wrote its own message
    process.stderr.write(`smriti: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof CliError ? err.exitCode : 1;
  }
}
