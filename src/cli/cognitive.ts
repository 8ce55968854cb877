// `smriti cognitive status|process|trace|ablate|tune`: the inspection routes from the command line (in-process on --data or
// against --url), the ablation run, and the tuner on outcome feedback.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { addTargetOptions, withClient, type Target } from "./client-target.ts";
import { addDataOption, CliError, type DataOptions, printJson, withRuntime } from "./shared.ts";

const target = (cmd: Command) => addTargetOptions(cmd).option("--json", "print the JSON response");

const out = (line: string) => process.stdout.write(`${line}\n`);
const pairs = (r: Record<string, number> | null) =>
  r && Object.keys(r).length
    ? Object.entries(r)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")
    : "-";

export function registerCognitive(program: Command): void {
  const cognitive = program.command("cognitive").description("inspect the cognitive layer stack, measure and tune it");

  target(cognitive.command("status"))
    .description("layers: job, switch, counters, ablation uplift and stress uplift")
    .action(async (opts: Target) => {
      const { layers } = await withClient(opts, (c) => c.cognitive_layers());
      if (opts.json) return printJson({ layers });
      for (const l of layers)
        out(
          `${l.id.padEnd(13)}  ${l.enabled ? "on " : "off"}  counters: ${pairs(l.counters)}  uplift: ${pairs(l.uplift)}  stress: ${pairs(l.stress_uplift)}`,
        );
    });

  target(cognitive.command("process"))
    .description("run a query through the stack without side effects; prints trace_id, confidence, decision")
    .argument("<query>")
    .option("-k <n>", "evidence items (1-50)", (v) => Number.parseInt(v, 10))
    .action(async (query: string, opts: Target & { k?: number }) => {
      const r = await withClient(opts, (c) => c.process_cognitive(query, opts.k === undefined ? {} : { k: opts.k }));
      if (opts.json) return printJson(r);
      out(`trace_id    ${r.trace_id}`);
      out(`confidence  ${r.confidence}`);
      out(`decision    ${r.decision}`);
      for (const e of r.evidence.slice(0, 5))
        out(
          `  ${e.score.toFixed(3)}  ${e.source_path} § ${e.anchor}${e.flags.length ? `  [${e.flags.join(",")}]` : ""}`,
        );
    });

  target(cognitive.command("trace"))
    .description("read back a process trace (in-process on --data, or from the server at --url with $SMRITI_TOKEN)")
    .argument("<trace_id>")
    .action(async (traceId: string, opts: Target) => {
      const t = await withClient(opts, (c) => c.cognitive_trace(traceId));
      if (opts.json) return printJson(t);
      out(`${t.trace_id}  confidence ${t.confidence}  ${t.decision}  "${t.query}"`);
      for (const s of t.steps)
        out(
          `  ${s.layer.padEnd(13)} ${s.stage.padEnd(8)} ${s.status.padEnd(7)} ${s.ms}ms ${s.counts ? pairs(s.counts) : ""}${s.error ? ` error: ${s.error}` : ""}`,
        );
    });

  addDataOption(cognitive.command("tune"))
    .description(
      "tune layer parameters on outcome feedback (POST /v1/memory/feedback with a query or trajectory_id); records every decision, the server uses the result from its next start",
    )
    .option("--workspace <name>", "learn from this workspace's feedback only (default: every workspace)")
    .option("--json", "print the decisions as JSON")
    .action(async (opts: DataOptions & { workspace?: string; json?: boolean }) =>
      withRuntime(
        opts,
        async (rt) => {
          const ws =
            opts.workspace === undefined
              ? await rt.store.workspaces.listWorkspaces()
              : [await rt.store.workspaces.findWorkspace(opts.workspace)];
          if (ws.some((w) => w === undefined)) throw new CliError(`no workspace '${opts.workspace}'`);
          const { feedbackCases, MIN_FEEDBACK_CASES, tuneFromFeedback } =
            await import("../services/cognitive/feedback-tuning.ts");
          const cases = await feedbackCases(
            rt.store.audit,
            ws.map((w) => w!.id),
          );
          if (cases.length < MIN_FEEDBACK_CASES)
            throw new CliError(
              `${cases.length} queries with feedback; tuning needs at least ${MIN_FEEDBACK_CASES} (send POST /v1/memory/feedback with "query" or "trajectory_id")`,
            );
          const runId = `feedback-${new Date().toISOString()}`;
          const r = await tuneFromFeedback(
            { store: rt.store, memory: rt.memory, pipeline: rt.cognitive.pipeline, now: Date.now },
            cases,
            { runId },
          );
          if (opts.json)
            return printJson({
              run_id: runId,
              cases: r.cases,
              baseline: r.baseline,
              final: r.final,
              decisions: r.decisions,
            });
          out(
            `${r.cases} queries with feedback; held-in ${r.baseline.heldIn.toFixed(4)} -> ${r.final.heldIn.toFixed(4)} (held-out ${r.baseline.heldOut?.toFixed(4) ?? "-"} -> ${r.final.heldOut?.toFixed(4) ?? "-"})`,
          );
          for (const d of r.decisions)
            out(
              `  ${d.kept ? "kept    " : "rejected"}  ${d.layer}.${d.parameter} ${String(d.before)} -> ${String(d.after)}  held-in ${d.held_in_before} -> ${d.held_in_after}`,
            );
          out(
            `recorded as ${runId}; the server uses the tuned parameters from its next start (SMRITI_TUNED=0 ignores them)`,
          );
        },
        { restoreLearned: false },
      ),
    );

  addDataOption(cognitive.command("ablate"))
    .description(
      "measure each layer's uplift (every layer on, then each off) on the public eval sets and record it for the uplift route (~10 min)",
    )
    .option("--eval-dir <dir>", "the public eval sets (default $SMRITI_EVAL_DIR or ../shared/eval beside the checkout)")
    .action(async (opts: DataOptions & { evalDir?: string }) => {
      const root = fileURLToPath(new URL("../..", import.meta.url));
      const evalDir = resolve(root, opts.evalDir ?? process.env.SMRITI_EVAL_DIR ?? "../shared/eval");
      if (!existsSync(resolve(root, "eval/run.ts")))
        throw new CliError(
          "ablate runs the eval harness of a source checkout (eval/run.ts), which this install does not have",
        );
      if (!existsSync(evalDir))
        throw new CliError(
          `ablate needs the public eval sets (LoCoMo, LongMemEval, SciFact, XQuAD); none at ${evalDir} (pass --eval-dir)`,
        );
      // The same runner as `npm run eval -- ablation`; it records into the data directory the server reads.
      const env = {
        ...process.env,
        SMRITI_EVAL_DIR: evalDir,
        ...(opts.data ? { SMRITI_DATA_DIR: resolve(opts.data) } : {}),
      };
      const code = await new Promise<number | null>((done) =>
        spawn(process.execPath, ["--import", "tsx", "eval/run.ts", "ablation"], {
          cwd: root,
          env,
          stdio: "inherit",
        }).on("close", done),
      );
      if (code !== 0) throw new CliError(`ablation failed (exit ${code})`);
    });
}
