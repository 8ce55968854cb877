// Entry point of `npm run eval`: no argument = every set (retrieval, answers, then adr, qmsum and open-loops); set names run those; `calibrate` fits the fusion weights.
import { ADR_SET_NAMES, runAdrSets } from "./adr/run.ts";
import { ANSWER_SET_NAMES, runAnswerSets } from "./answers/run.ts";
import { LOOP_SET_NAMES, runLoopSets } from "./loops/run.ts";
import { QMSUM_SET_NAMES, runQmsumSets } from "./qmsum/run.ts";
import { SET_NAMES } from "./data/index.ts";
import { chooseEmbedder } from "./harness.ts";
import { evalDataDir } from "./paths.ts";
import { progress } from "./progress.ts";
import { runSets } from "./run-sets.ts";
import { writeSummary } from "./summary.ts";

/** Runs only when named (not part of a plain `npm run eval`), loaded on demand. */
const COMMANDS: Record<string, () => Promise<void>> = {
  calibrate: async () => (await import("./calibrate/run.ts")).calibrate(),
  tune: async () => (await import("./cognitive/tune.ts")).runTuner(),
  ablation: async () => (await import("./cognitive/ablation.ts")).runAblation(),
  stress: async () => (await import("./cognitive/stress.ts")).runStress(),
  ideas: async () => (await import("./ideas/run.ts")).runIdeas(),
};
const USAGE = `usage: npm run eval [-- <${[...SET_NAMES, ...ANSWER_SET_NAMES, ...ADR_SET_NAMES, ...QMSUM_SET_NAMES, ...LOOP_SET_NAMES, ...Object.keys(COMMANDS)].join("|")}> ...] [--embedder <model dir>]   (data: ${evalDataDir}, override with SMRITI_EVAL_DIR)`;

async function main(argv: string[]): Promise<void> {
  // `--embedder <model dir>`: every set, and calibrate, run with that local model (calibrate stores its fit by id).
  const at = argv.indexOf("--embedder");
  if (at >= 0 && argv[at + 1] === undefined) {
    process.stderr.write(`--embedder needs a model directory (or glove)\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (at >= 0) chooseEmbedder(argv[at + 1]!);
  const args = at >= 0 ? argv.filter((_, i) => i !== at && i !== at + 1) : argv;
  const unknown = args.filter(
    (a) =>
      !Object.hasOwn(COMMANDS, a) &&
      !SET_NAMES.includes(a) &&
      !ANSWER_SET_NAMES.includes(a) &&
      !ADR_SET_NAMES.includes(a) &&
      !QMSUM_SET_NAMES.includes(a) &&
      !LOOP_SET_NAMES.includes(a),
  );
  if (unknown.length > 0 || args.includes("--help")) {
    process.stderr.write(`${unknown.length ? `unknown: ${unknown.join(", ")}\n` : ""}${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const sets = args.length === 0 ? SET_NAMES : args.filter((a) => SET_NAMES.includes(a));
  if (sets.length > 0) await runSets(sets);
  const answerSets = args.length === 0 ? ANSWER_SET_NAMES : args.filter((a) => ANSWER_SET_NAMES.includes(a));
  if (answerSets.length > 0) await runAnswerSets(answerSets);
  if (args.length === 0 || args.some((a) => ADR_SET_NAMES.includes(a))) runAdrSets();
  if (args.length === 0 || args.some((a) => QMSUM_SET_NAMES.includes(a))) runQmsumSets();
  if (args.length === 0 || args.some((a) => LOOP_SET_NAMES.includes(a))) runLoopSets();
  for (const [name, run] of Object.entries(COMMANDS)) if (args.includes(name)) await run();
  progress(`wrote ${writeSummary()}`);
  progress(`done in ${((performance.now() - started) / 1000).toFixed(1)}s`);
}

await main(process.argv.slice(2));
