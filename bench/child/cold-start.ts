// Run in a fresh process: open the runtime on an existing data dir, time the first recalls, then measure memory.
// argv: <dataDir> <glove|none> <query>
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { memorySnapshot } from "../lib/memory.ts";
import { openRuntime } from "../lib/runtime.ts";
import { round } from "../lib/stats.ts";
import { reply } from "../workers/ipc.ts";

const [dataDir, embedderKind, query] = process.argv.slice(2);
if (!dataDir || !query) throw new Error("usage: cold-start.ts <dataDir> <glove|none> <query>");

const baseline = memorySnapshot();
const t0 = performance.now();
const embedder = embedderKind === "glove" ? await loadGloveEmbedder() : null;
const t1 = performance.now();
const rt = await openRuntime(dataDir, embedder);
const t2 = performance.now();
await rt.runtime.memory.recall(rt.workspaceId, { query, k: 10, mode: "lexical" });
const t3 = performance.now();
await rt.runtime.memory.recall(rt.workspaceId, { query: `${query} again`, k: 10, mode: "hybrid" });
const t4 = performance.now();
await rt.runtime.memory.recall(rt.workspaceId, { query: `${query} once more`, k: 10, mode: "hybrid" });
const t5 = performance.now();
const loaded = memorySnapshot();
const restored = rt.runtime.search.stats().restored > 0;
await rt.runtime.close(); // saves the indexes: the next fresh process reads them back

await reply({
  type: "cold-start",
  embedder: embedder?.id ?? "none",
  embedderLoadMs: round(t1 - t0, 1),
  openMs: round(t2 - t1, 1),
  firstLexicalRecallMs: round(t3 - t2, 1),
  firstHybridRecallMs: round(t4 - t3, 1),
  toFirstRecallMs: round(t4 - t0, 1),
  warmRecallMs: round(t5 - t4, 2),
  memoryBaseline: baseline,
  memoryLoaded: loaded,
  restored,
});
process.disconnect();
