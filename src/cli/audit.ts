// `smriti audit verify`: recomputes every workspace's hash chain and fails on any edited, removed or reordered event.
import type { Command } from "commander";
import { addDataOption, CliError, printJson, withRuntime, type DataOptions } from "./shared.ts";

export function registerAudit(program: Command): void {
  const audit = program.command("audit").description("inspect the tamper-evident audit log");
  addDataOption(audit.command("verify"))
    .description("verify the hash chain of every workspace (or one)")
    .option("--workspace <name>", "only this workspace")
    .option("--json", "print JSON")
    .action(async (opts: DataOptions & { workspace?: string; json?: boolean }) => {
      await withRuntime(
        opts,
        async (rt) => {
          const { AuditService } = await import("../services/audit/audit.ts");
          const service = new AuditService(rt.store.audit, { now: () => new Date() });
          const workspaces = opts.workspace
            ? [await rt.store.workspaces.findWorkspace(opts.workspace)].filter((w) => w !== undefined)
            : await rt.store.workspaces.listWorkspaces();
          if (opts.workspace && workspaces.length === 0) throw new CliError(`no workspace '${opts.workspace}'`);
          const results = [];
          for (const w of workspaces) results.push({ workspace: w.name, ...(await service.verify(w.id)) });
          if (opts.json) printJson(results);
          else
            for (const r of results)
              process.stdout.write(
                r.break
                  ? `${r.workspace}: BROKEN at event ${r.break.seq} (${r.break.reason})\n`
                  : `${r.workspace}: ok (${r.events} events)\n`,
              );
          if (results.some((r) => r.break)) throw new CliError("audit chain verification failed", 2);
        },
        { embedder: null },
      );
    });
}
