// `npm run bench:scifact [-- --seconds=10]`: the SciFact rows on real data. Loads SciFact's abstracts (the shared
// eval data, never copied here) with the default GloVe embedder, times every train claim in-process (server-side
// took_ms, hybrid and lexical), then drives recall over HTTP with autocannon from another process at 1, 16 and 64
// connections. Prints a table; writes bench/results/scifact-<date>-<commit>.json.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadScifact } from "../eval/data/scifact.ts";
import { loadGloveEmbedder } from "../src/embed/glove.ts";
import { progress } from "./lib/log.ts";
import { commitInfo, load1, machineInfo } from "./lib/machine.ts";
import { openRuntime } from "./lib/runtime.ts";
import { startServer } from "./lib/server.ts";
import { summarize } from "./lib/stats.ts";
import { renderTable } from "./report/table.ts";
import { benchHttpLoad } from "./scenarios/http-load.ts";

const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 10);
const root = fileURLToPath(new URL("..", import.meta.url));
const loadAtStart = load1();
const commit = commitInfo(root);
const set = loadScifact();
const claims = set.queries.map((q) => q.text);
const dir = mkdtempSync(join(tmpdir(), "smriti-scifact-"));
try {
  progress("loading GloVe and ingesting SciFact's abstracts");
  const rt = await openRuntime(dir, await loadGloveEmbedder());
  let chunks = 0;
  for (const doc of set.vaults[0]!.docs)
    chunks += (await rt.runtime.ingest.ingest(rt.workspaceId, { source_path: doc.sourcePath, content: doc.content }))
      .chunks;
  const tookMs = async (mode: "hybrid" | "lexical") => {
    for (const q of claims.slice(0, 50)) await rt.runtime.memory.recall(rt.workspaceId, { query: q, k: 10, mode }); // warm-up
    const took: number[] = [];
    for (const q of claims)
      took.push((await rt.runtime.memory.recall(rt.workspaceId, { query: q, k: 10, mode })).took_ms);
    return summarize(took);
  };
  progress(`took_ms of ${claims.length} train claims, in-process`);
  const hybrid = await tookMs("hybrid");
  const lexical = await tookMs("lexical");
  progress(`recall over HTTP under autocannon, ${seconds} s per step`);
  const srv = await startServer(rt.runtime);
  const load = await benchHttpLoad(srv, claims, seconds, hybrid.mean);
  await srv.server.close();
  await rt.runtime.close();

  const results = {
    date: new Date().toISOString().slice(0, 10),
    commit,
    machine: machineInfo(null, loadAtStart),
    documents: set.vaults[0]!.docs.length,
    chunks,
    claims: claims.length,
    tookMs: { hybrid, lexical },
    load,
  };
  process.stdout.write(
    `\nSciFact: ${results.documents} abstracts, ${chunks} chunks, ${claims.length} train claims\n` +
      renderTable(
        ["server-side took_ms (in-process)", "p50", "p90", "p99", "mean"],
        [
          ["hybrid", hybrid.p50, hybrid.p90, hybrid.p99, hybrid.mean],
          ["lexical", lexical.p50, lexical.p90, lexical.p99, lexical.mean],
        ],
      ) +
      "\n\n" +
      renderTable(
        ["recall over HTTP, autocannon", "req/s", "mean ms", "p50 ms", "p99 ms", "errors", "non-2xx"],
        load.steps.map((s) => [
          `${s.connections} connection(s)`,
          s.requestsPerSec,
          s.mean,
          s.p50,
          s.p99,
          s.errors,
          s.non2xx,
        ]),
      ) +
      `\nHTTP mean at 1 connection / in-process took_ms mean = x${load.overheadRatio ?? "?"}\n`,
  );
  const file = fileURLToPath(new URL(`./results/scifact-${results.date}-${commit.short}.json`, import.meta.url));
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  progress(`wrote ${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
