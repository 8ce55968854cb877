// `smriti proposals list|review`: the human review step of governed long-term memory (works while the server runs).
import type { Command } from "commander";
import { userInfo } from "node:os";
import { addDataOption, CliError, printJson, withRuntime, workspaceCall, type DataOptions } from "./shared.ts";

export function registerProposals(program: Command): void {
  const proposals = program
    .command("proposals")
    .description("review long-term-memory proposals from the knowledge lifecycle");
  addDataOption(proposals.command("list"))
    .description("list proposals, oldest first")
    .option("--workspace <name>", "workspace", "default")
    .option("--status <status>", "pending, approved or rejected", "pending")
    .option("--json", "print JSON")
    .action(async (opts: DataOptions & { workspace: string; status: string; json?: boolean }) => {
      await withRuntime(
        opts,
        async (rt) => {
          const call = await workspaceCall(rt, opts.workspace);
          const all = [];
          for (let cursor: string | undefined; ;) {
            const page = await rt.proposals.list(call, { status: opts.status as "pending", limit: 200, cursor });
            all.push(...page.proposals);
            if (!page.next_cursor) break;
            cursor = page.next_cursor;
          }
          if (opts.json) printJson(all);
          else
            for (const p of all)
              process.stdout.write(
                `${p.id}\t${p.status}\t${p.proposed_by ?? "-"}\t${p.content.split("\n")[0]?.replace(/^# /, "") ?? ""}\n`,
              );
        },
        { embedder: null },
      );
    });
  addDataOption(proposals.command("review"))
    .description("approve (store in the vault) or reject a pending proposal")
    .argument("<proposal_id>")
    .option("--approve", "store the artefact in the vault")
    .option("--reject", "discard it")
    .option("--note <text>", "why; kept with the proposal and in the audit log")
    .option("--reviewer <name>", "who reviews (default: the OS user)")
    .option("--workspace <name>", "workspace", "default")
    .option("--json", "print JSON")
    .action(
      async (
        id: string,
        opts: DataOptions & {
          approve?: boolean;
          reject?: boolean;
          note?: string;
          reviewer?: string;
          workspace: string;
          json?: boolean;
        },
      ) => {
        if (Boolean(opts.approve) === Boolean(opts.reject))
          throw new CliError("pass exactly one of --approve or --reject");
        await withRuntime(opts, async (rt) => {
          const call = { ...(await workspaceCall(rt, opts.workspace)), actorId: opts.reviewer ?? userInfo().username };
          const reviewed = await rt.proposals.review(call, {
            proposal_id: id,
            verdict: opts.approve ? "approve" : "reject",
            note: opts.note,
          });
          if (opts.json) printJson(reviewed);
          else
            process.stdout.write(
              `${reviewed.id} ${reviewed.status} by ${reviewed.reviewed_by}${reviewed.status === "approved" ? ` -> ${reviewed.target_source_path}` : ""}\n`,
            );
        });
      },
    );
}
