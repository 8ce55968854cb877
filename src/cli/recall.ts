// `smriti recall "<query>"`: a readable table of citations (or JSON) straight from the data directory.
import type { Command } from "commander";
import { RecallRequest } from "../contract/memory.ts";
import { recallFilters, type RecallOptions } from "./recall-filters.ts";
import { addDataOption, printJson, withRuntime, workspaceCall, type DataOptions } from "./shared.ts";

export function registerRecall(program: Command): void {
  addDataOption(program.command("recall"))
    .description("search memory and print citations")
    .argument("<query>")
    .option("-k <n>", "number of hits", (v) => Number.parseInt(v, 10), 10)
    .option("--workspace <name>", "workspace", "default")
    .option("--prefix <path>", "only sources under this path")
    .option("--mode <mode>", "hybrid | lexical | vector", "hybrid")
    .option("--since <iso>", "only what occurred at or after this time (ISO 8601)")
    .option("--until <iso>", "only what occurred before this time (ISO 8601)")
    .option("--as-of <iso>", "memory as it stood at this time: only what had occurred by then")
    .option("--asked-at <iso>", "when the question is asked, for its relative words ('last week'); default now")
    .option(
      "--detect-supersession",
      "also rank statements a later one replaced lower (found without a model; off by default)",
    )
    .option("--json", "print the JSON response")
    .action(
      async (
        query: string,
        opts: DataOptions &
          RecallOptions & { k: number; workspace: string; mode: string; askedAt?: string; json?: boolean },
      ) => {
        await withRuntime(opts, async (rt) => {
          const call = await workspaceCall(rt, opts.workspace);
          const req = RecallRequest.parse({
            query,
            k: opts.k,
            mode: opts.mode,
            ...recallFilters(opts),
            ...(opts.askedAt ? { asked_at: opts.askedAt } : {}),
          });
          const res = await rt.handlers.recall(call, req);
          if (opts.json) return printJson(res);
          if (res.hits.length === 0) return void process.stdout.write("no hits\n");
          const width = Math.max(20, (process.stdout.columns ?? 120) - 40);
          for (const note of res.notes ?? []) process.stdout.write(`note: ${note}\n`);
          for (const [i, h] of res.hits.entries()) {
            const snippet = h.text_span.replace(/\s+/g, " ");
            const when = h.occurred_at ? `  @ ${h.occurred_at.slice(0, 16).replace("T", " ")}` : "";
            const by = h.superseded_by;
            const replaced = by
              ? `      superseded by ${by.record_id ?? by.source_path} on ${by.at.slice(0, 10)}\n`
              : "";
            process.stdout.write(
              `${String(i + 1).padStart(2)}  ${h.score.toFixed(3)}  ${h.source_path} § ${h.anchor}${when}\n` +
                `      ${snippet.length > width ? `${snippet.slice(0, width - 1)}…` : snippet}\n` +
                `      ${h.chunk_hash.slice(0, 19)}…\n` +
                replaced,
            );
          }
        });
      },
    );
}
