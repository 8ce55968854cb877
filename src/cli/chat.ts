// `smriti chat`: an interactive session in the terminal. Streams the answer, shows each tool as a row, asks the operator
// at approvals, and lists the citations; in-process on --data, or against a running server with --url.
import { createInterface } from "node:readline";
import type { Command } from "commander";
import type { SessionEvent, SmritiClient } from "../client/index.ts";
import { addTargetOptions, withClient, type Target } from "./client-target.ts";

interface ChatOptions extends Target {
  session?: string;
  provider?: string;
  permissionMode?: string;
  approvalMode?: string;
  policy?: string;
  debug?: boolean;
}

const write = (text: string) => process.stdout.write(text);
const brief = (v: unknown, max = 60) => {
  const s = JSON.stringify(v) ?? "";
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** One line per event worth a person's eye; tokens stream inline. Returns a request id when the turn waits for approval. */
function render(e: SessionEvent, debug: boolean): string | null {
  switch (e.event) {
    case "token":
      write(e.data.text);
      break;
    case "thinking":
      write(`· ${e.data.text}\n`);
      break;
    case "tool_call": {
      const { _tool_call_id: _, ...args } = e.data.arguments;
      write(`  → ${e.data.name} ${brief(args)}\n`);
      break;
    }
    case "tool_outcome":
      write(`  ← ${e.data.tool_name} ${e.data.status} (${e.data.elapsed_ms} ms)\n`);
      break;
    case "response":
      write("\n");
      for (const [i, c] of e.data.citations.entries())
        write(`  [${i + 1}] ${c.source_path} § ${c.anchor}  ${c.score.toFixed(2)}\n`);
      break;
    case "transport_diagnostic":
      write(`  (${e.data.provider_requested} failed: ${e.data.reason}; now ${e.data.provider_actual})\n`);
      break;
    case "approval_required":
      write(`\n? ${e.data.tool_name} ${brief(e.data.arguments ?? {}, 120)}\n  ${e.data.reason}\n`);
      return e.data.request_id;
    case "error":
      write(`\nerror: ${e.data.code}: ${e.data.message}\n`);
      break;
    default:
      if (debug) write(`  [${e.event}] ${brief(e.data, 100)}\n`);
  }
  return null;
}

async function converse(client: SmritiClient, opts: ChatOptions): Promise<void> {
  const sessionId =
    opts.session ??
    (
      await client.createChatSession({
        ...(opts.provider ? { provider: opts.provider } : {}),
        ...(opts.permissionMode ? { permission_mode: opts.permissionMode as "read-only" } : {}),
        ...(opts.approvalMode ? { approval_mode: opts.approvalMode as "never" } : {}),
        ...(opts.policy ? { policy_path: opts.policy } : {}),
      })
    ).session_id;
  const { session } = await client.getChatSession(sessionId);
  write(
    `session ${sessionId} (${session.provider}, ${session.permission_mode}, approvals ${session.approval_mode}); /exit to leave\n`,
  );
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string) => {
    if (process.stdin.isTTY) write(prompt);
    const next = await lines.next();
    return next.done ? null : next.value.trim();
  };
  try {
    for (;;) {
      const message = await ask("> ");
      if (message === null || message === "/exit" || message === "/quit") return;
      if (!message) continue;
      let stream = client.sendMessage(sessionId, message);
      for (;;) {
        let waiting: string | null = null;
        for await (const e of stream) waiting = render(e, opts.debug === true) ?? waiting;
        if (!waiting) break;
        const answer = await ask("  approve? [y/N] ");
        const decision = answer?.toLowerCase().startsWith("y") ? "approve" : "deny";
        write(`  ${decision === "approve" ? "approved" : "denied"}\n`);
        stream = client.decideApproval(sessionId, waiting, decision);
      }
      write("\n");
    }
  } finally {
    rl.close();
  }
}

export function registerChat(program: Command): void {
  addTargetOptions(program.command("chat"))
    .description("chat with a memory agent: streamed answers, tool rows, approvals as prompts, citations")
    .option("--session <id>", "continue this chat session")
    .option("--provider <id>", "extractive (no model) or openai (SMRITI_LLM_BASE_URL)")
    .option("--permission-mode <mode>", "read-only | workspace-write | full")
    .option("--approval-mode <mode>", "never | on-write | always")
    .option("--policy <file>", "a policy file under SMRITI_POLICY_DIR")
    .option("--debug", "also show the debug-tier events")
    .action(async (opts: ChatOptions) => withClient(opts, (client) => converse(client, opts)));
}
