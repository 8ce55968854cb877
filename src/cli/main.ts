// The `smriti` command line: one subcommand per file, registered here.
import { Command } from "commander";
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

const program = new Command("smriti").version(VERSION).description("Memory and grounded retrieval for AI agents");
registerServe(program);
registerToken(program);
registerIngest(program);
registerRecall(program);
registerForget(program);
registerMcp(program);
registerAudit(program);
registerProposals(program);
registerCognitive(program);
registerChat(program);
registerSessions(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`smriti: ${err instanceof CliError || err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof CliError ? err.exitCode : 1;
}
