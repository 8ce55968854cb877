// `smriti forget <source_path | sha256:...>`: unindex a source or a chunk (idempotent).
import type { Command } from "commander";
import { ForgetRequest } from "../contract/memory.ts";
import { addDataOption, printJson, withRuntime, workspaceCall, type DataOptions } from "./shared.ts";

export function registerForget(program: Command): void {
  addDataOption(program.command("forget"))
    .description("forget a source path or a chunk_hash")
    .argument("<target>", "a source_path, or a chunk_hash (sha256:...)")
    .option("--workspace <name>", "workspace", "default")
    .option("--json", "print the JSON response")
    .action(async (target: string, opts: DataOptions & { workspace: string; json?: boolean }) => {
      await withRuntime(
        opts,
        async (rt) => {
          const req = ForgetRequest.parse(
            target.startsWith("sha256:") ? { chunk_hash: target } : { source_path: target },
          );
          const res = await rt.handlers.forget(await workspaceCall(rt, opts.workspace), req);
          if (opts.json) return printJson(res);
          process.stdout.write(
            res.already_forgotten
              ? `already forgotten: ${target}\n`
              : `forgot ${res.removed.length} chunk(s)${res.removed_sources.length ? ` and source(s) ${res.removed_sources.join(", ")}` : ""}\n`,
          );
        },
        { embedder: null },
      );
    });
}
