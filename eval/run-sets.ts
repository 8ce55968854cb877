// `npm run eval [-- <set>...]`: the standard variants on each set, tables on stdout, JSON in eval/results.
import { SETS } from "./data/index.ts";
import { evalEmbedder, evalRetrieval } from "./harness.ts";
import { progress } from "./progress.ts";
import { printSet, setResult, writeResult } from "./report.ts";
import { runStandard } from "./run-set.ts";

export async function runSets(names: string[]): Promise<void> {
  const embedder = await evalEmbedder();
  const retrieval = evalRetrieval(embedder);
  for (const name of names) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const set = SETS[name]!();
    const { run, results } = await runStandard(set, retrieval);
    const used = process.cpuUsage(cpu);
    const result = setResult(run, results, retrieval, embedder.id, {
      wallMs: Math.round(performance.now() - wall),
      cpuMs: Math.round((used.user + used.system) / 1000),
    });
    printSet(result);
    progress(`wrote ${writeResult(name, result)}`);
  }
}
