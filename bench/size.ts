// Every measurement for one corpus size, on fresh databases in a scratch directory.
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { BenchDocument } from "./corpus/documents.ts";
import { generateQueries, slices } from "./corpus/queries.ts";
import { dbSize } from "./lib/db-size.ts";
import { progress } from "./lib/log.ts";
import { memorySnapshot } from "./lib/memory.ts";
import type { BenchOptions } from "./lib/options.ts";
import { openRuntime } from "./lib/runtime.ts";
import { startServer } from "./lib/server.ts";
import type { SizeResults } from "./report/types.ts";
import { benchCli } from "./scenarios/cli.ts";
import { benchColdStart } from "./scenarios/cold-start.ts";
import { benchServed, START_MS } from "./scenarios/served.ts";
import { benchWorkersLoad } from "./scenarios/workers-load.ts";
import { benchContention } from "./scenarios/contention.ts";
import { benchHttpLoad, LOAD_CONNECTIONS } from "./scenarios/http-load.ts";
import { benchHttpRecall } from "./scenarios/http-recall.ts";
import { ingestToSize } from "./scenarios/ingest-to-size.ts";
import { benchPack } from "./scenarios/pack.ts";
import { benchRecall, type Mode } from "./scenarios/recall.ts";
import { benchLayers } from "./scenarios/layers.ts";
import { benchSessions } from "./scenarios/sessions.ts";
import { startServe, untilLogged } from "../test/cli/cli-helpers.ts";
import { benchHttpIngest } from "./scenarios/http-ingest.ts";
import { benchBackground } from "./scenarios/background.ts";
import { benchPostgres } from "./scenarios/postgres.ts";
import { startPacedModel } from "./lib/paced-model.ts";
import { childPids, cpuMsOf } from "./lib/proc.ts";
import type { Embedder } from "../src/ports/embedding.ts";

const MODES: Mode[] = ["lexical", "hybrid", "vector"];
const TAIL_CHUNKS = 500;
/** Background sessions started at once (issue target: >= 200 running at the same time). */
const BACKGROUND_SESSIONS = 250;
/** How long the model double takes per step: what makes a real model's runs overlap. */
const PACED_MODEL_MS = 3_000;
/** Bulk ingest over HTTP: 200 documents of 50 chunks, 4 in flight like `smriti ingest`. */
const BULK = { documents: 200, chunksPerDocument: 50, inFlight: 4, pathPrefix: "bulk" };

export async function benchSize(
  dir: string,
  docs: readonly BenchDocument[],
  vocab: readonly string[],
  glove: Embedder,
  opts: BenchOptions,
): Promise<SizeResults> {
  const chunks = docs.reduce((n, d) => n + d.sections, 0);
  const label = `${chunks / 1000}k`;
  const noneDir = join(dir, "none");
  const gloveDir = join(dir, "glove");
  const budget = { budgetSeconds: opts.ingestBudgetSeconds, tailChunks: TAIL_CHUNKS };

  progress(`${label}: ingest without embedder`);
  const ingestNone = await ingestToSize(noneDir, null, docs, { label: `${label}/none`, ...budget });
  progress(`${label}: ingest with ${glove.id}`);
  const ingestGlove = await ingestToSize(gloveDir, glove, docs, { label: `${label}/glove`, ...budget });
  const db = { none: dbSize(join(noneDir, "smriti.db")), glove: dbSize(join(gloveDir, "smriti.db")) };

  const { queries: q, warmup: w, limits } = opts;
  const loadTiming = { seconds: limits.loadRoundSeconds, rounds: limits.loadRounds };
  const loadLabel = `${limits.loadRounds} rounds of ${limits.loadRoundSeconds} s a step`;
  const httpSeq = Math.max(500, Math.round(q / 2));
  const httpConc = Math.max(800, q);
  const packN = Math.max(300, Math.round(q / 2));
  const rest = 20_000;
  const all = generateQueries(
    vocab,
    3 * (w + q) + 2 * w + httpSeq + httpConc + packN + w + 2 * q + rest,
    opts.seed + chunks,
  );
  const [lexW, lexQ, hybW, hybQ, vecW, vecQ, packW, packQ, httpW, httpS, httpC, layW, layOn, layOff, spare] = slices(
    all,
    w,
    q,
    w,
    q,
    w,
    q,
    w,
    packN,
    w,
    httpSeq,
    httpConc,
    w,
    q,
    q,
    rest,
  );

  progress(`${label}: cold start (fresh processes)`);
  // The first reads every row and saves the indexes as it closes; the third (a restart) reads them back.
  const coldGlove = await benchColdStart(gloveDir, "glove", all[0]!);
  const coldNone = await benchColdStart(noneDir, "none", all[1]!);
  const coldRestart = await benchColdStart(gloveDir, "glove", all[2]!);
  progress(`${label}: smriti --help and smriti recall (fresh processes of the compiled CLI)`);
  const cli = await benchCli(gloveDir, all.slice(3, 11));
  progress(`${label}: smriti serve (compiled, fresh processes): indexes from the saved snapshot, then from every row`);
  const served = {
    snapshot: await benchServed(gloveDir, all.slice(11, 70), true),
    rows: await benchServed(gloveDir, all.slice(11, 70), false),
  };
  const groups = [...new Set([1, availableParallelism()])];
  progress(
    `${label}: smriti serve --workers ${groups.join(" and ")} under autocannon (compiled, fresh groups; ${loadLabel})`,
  );
  const workersLoad = await benchWorkersLoad(gloveDir, [...httpS!, ...httpC!], loadTiming, groups);

  const model = await startPacedModel(PACED_MODEL_MS);
  const rt = await openRuntime(gloveDir, glove, { SMRITI_LLM_BASE_URL: model.url });
  const recall = [];
  const sets: Record<Mode, [string[], string[]]> = {
    lexical: [lexW!, lexQ!],
    hybrid: [hybW!, hybQ!],
    vector: [vecW!, vecQ!],
  };
  for (const mode of MODES) {
    progress(`${label}: recall ${mode} in-process`);
    recall.push(await benchRecall(rt, mode, ...sets[mode], limits.recall));
  }
  progress(`${label}: pack in-process`);
  const pack = await benchPack(rt, packW!, packQ!, limits.pack);
  progress(`${label}: cognitive layers (hybrid recall, all on / all off)`);
  const layers = await benchLayers(rt, layW!, layOn!, layOff!, limits.recall);
  const benchProcessMemory = memorySnapshot();

  const srv = await startServer(rt.runtime);
  progress(`${label}: recall over HTTP`);
  const http = await benchHttpRecall(
    srv,
    { warmup: httpW!, sequential: httpS!, concurrent: httpC! },
    limits.httpSequential,
    limits.httpConcurrent,
  );
  progress(
    `${label}: recall over HTTP under autocannon from another process (${LOAD_CONNECTIONS.join(", ")} connections, ${loadLabel})`,
  );
  const httpLoad = await benchHttpLoad(
    srv,
    [...httpS!, ...httpC!],
    loadTiming,
    recall.find((r) => r.mode === "hybrid")?.mean ?? null,
  );
  progress(`${label}: chat sessions over HTTP (extractive provider)`);
  // `smriti serve` on the vault as it runs by default (a session process takes the turns), and beside it one that runs
  // them in its serving process; the recall client has no rate limit to meet.
  const serveEnv = (sessionProcess: string) => ({
    ...process.env,
    SMRITI_RATE_LIMIT: "0",
    SMRITI_STREAMS_PER_TOKEN: "0",
    SMRITI_SESSION_PROCESS: sessionProcess,
  });
  const [byDefault, joined] = [
    await startServe(gloveDir, serveEnv(""), [], START_MS),
    await startServe(gloveDir, serveEnv("0"), [], START_MS),
  ];
  const measured = (s: typeof byDefault) => ({
    url: s.url,
    token: srv.token,
    cpuMs: () => [s.child.pid!, ...childPids(s.child.pid!)].reduce((ms, pid) => ms + cpuMsOf(pid), 0),
  });
  const sessionProcessReady = () =>
    untilLogged(byDefault, /session routes: answered by process \d+ \(ready in (\d+) ms\)/, START_MS).then(Number);
  const sessions = await benchSessions(
    { ...measured(byDefault), sessionProcessReady },
    measured(joined),
    rt.runtime,
    spare!.slice(0, 600).map((q) => `What do we know about ${q}?`),
    spare!.slice(600),
    { turns: 60, busyTurns: 30, idleQueries: 200 },
  ).finally(() => Promise.all([byDefault.stop(), joined.stop()]));
  const tasks = spare!.slice(0, BACKGROUND_SESSIONS + 5).map((q) => `What do we know about ${q}?`);
  progress(`${label}: ${BACKGROUND_SESSIONS} background sessions at once (extractive agent)`);
  const backgroundExtractive = await benchBackground(srv, rt.runtime, rt.workspaceId, tasks, "extractive");
  progress(
    `${label}: ${BACKGROUND_SESSIONS} background sessions at once (a model double taking ${PACED_MODEL_MS} ms a step)`,
  );
  const backgroundPaced = await benchBackground(srv, rt.runtime, rt.workspaceId, tasks, "openai");
  let contention = null;
  if (opts.contention) {
    progress(`${label}: recall while ingesting 200 x 50 chunks over HTTP`);
    contention = await benchContention(srv, spare!.slice(2_200), {
      idleQueries: 200,
      documents: 200,
      chunksPerDocument: 50,
      seed: opts.seed + 7,
      maxSeconds: limits.contentionIngestSeconds,
    });
  }
  progress(`${label}: bulk ingest over HTTP, ${BULK.inFlight} documents in flight (as smriti ingest sends them)`);
  const httpIngest = await benchHttpIngest(srv, {
    ...BULK,
    seed: opts.seed + 11,
    maxSeconds: limits.contentionIngestSeconds,
  });
  await srv.server.close();
  await rt.runtime.close();
  await model.close();
  const postgres = opts.postgres
    ? await benchPostgres(join(dir, "postgres"), {
        docs,
        glove,
        warmup: hybW!,
        queries: hybQ!,
        httpQueries: [...httpS!, ...httpC!],
        limits: limits.recall,
        ingestBudgetSeconds: opts.ingestBudgetSeconds,
        loadSeconds: limits.loadRoundSeconds,
        loadRounds: limits.loadRounds,
        chatMessages: spare!.slice(0, 45).map((q) => `What do we know about ${q}?`),
        vocab,
        smallIngest: { seed: opts.seed + 17, rounds: 3, documentsPerRound: opts.quick ? 1_000 : 2_000 },
      })
    : null;
  return {
    chunks,
    documents: docs.length,
    ingest: { none: ingestNone, glove: ingestGlove },
    db,
    coldStart: { glove: coldGlove, none: coldNone, restart: coldRestart },
    cli,
    served,
    recall,
    pack,
    layers,
    http,
    httpLoad,
    workersLoad,
    contention,
    httpIngest,
    sessions,
    background: {
      extractive: backgroundExtractive,
      paced: { ...backgroundPaced, provider: `model double, ${PACED_MODEL_MS} ms/step` },
    },
    benchProcessMemory,
    postgres,
  };
}
