// The same corpus on PostgreSQL, beside the SQLite figures: ingest and in-process recall on one runtime, then recall
// throughput over HTTP from one `smriti serve` replica and from two on the same database (autocannon in other
// processes). Uses SMRITI_BENCH_DATABASE_URL (a schema of its own is created), else a throwaway cluster of the
// installed Debian postgresql; skipped with a notice when there is neither.
import { join } from "node:path";
import pg from "pg";
import type { BenchDocument } from "../corpus/documents.ts";
import { progress } from "../lib/log.ts";
import { openRuntime } from "../lib/runtime.ts";
import type { LoopLimits } from "../lib/timed-loop.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { LoadClientInit, LoadStep } from "../workers/protocol.ts";
import { benchIngest, type IngestResult } from "./ingest.ts";
import { benchRecall, type RecallResult } from "./recall.ts";
import { timeTurns } from "./sessions.ts";
import { startServer } from "../lib/server.ts";
import type { LatencySummary } from "../lib/stats.ts";
import { cliEnv, startServe, type RunningServe } from "../../test/cli/cli-helpers.ts";
import { postgresBinDir, startTestCluster } from "../../test/helpers/postgres-cluster.ts";
import { DEFAULT_WORKSPACE } from "../../src/services/auth.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { benchSmallIngest, type SmallIngest } from "./small-ingest.ts";

export interface ReplicaLoad {
  replicas: number;
  /** Summed over the load generators (one per replica, connections split evenly). */
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  steps: LoadStep[];
}

export interface PostgresResult {
  server: string;
  ingest: IngestResult;
  recall: RecallResult[];
  /** Loading the workspace's BM25 and vector indexes from PostgreSQL on its first search (what an evicted workspace costs). */
  indexLoadSeconds: number;
  replicas: ReplicaLoad[];
  /** Two replicas' throughput over one's. */
  scaling: number;
  /** Extractive chat turns over HTTP on the in-process runtime (absent in results written before it was measured). */
  chat?: { firstToken: LatencySummary; turn: LatencySummary };
  /** One-chunk documents from 8 writers, as the SQLite small-writes scenario (absent before it was measured here). */
  smallIngest?: { inProcess: SmallIngest; http: SmallIngest };
}

interface Inputs {
  docs: readonly BenchDocument[];
  glove: Embedder;
  warmup: readonly string[];
  queries: readonly string[];
  httpQueries: readonly string[];
  limits: LoopLimits;
  ingestBudgetSeconds: number;
  loadSeconds: number;
  loadRounds: number;
  /** Chat messages for the turns timed on PostgreSQL (five warm up). */
  chatMessages: readonly string[];
  /** The corpus vocabulary and the rounds of the one-chunk document scenario. */
  vocab: readonly string[];
  smallIngest: { seed: number; rounds: number; documentsPerRound: number };
}

const CONNECTIONS = 16;

export async function benchPostgres(dir: string, input: Inputs): Promise<PostgresResult | null> {
  const database = await openDatabase();
  if (!database) {
    progress("postgres: skipped (no PostgreSQL installed and no SMRITI_BENCH_DATABASE_URL)");
    return null;
  }
  const env = { SMRITI_DATABASE_URL: database.url };
  try {
    progress("postgres: ingest (measured, time-boxed)");
    const ingest = await benchIngest(join(dir, "measure"), input.glove, input.docs, {
      label: "postgres",
      budgetSeconds: input.ingestBudgetSeconds,
      env,
    });
    const rt = await openRuntime(join(dir, "runtime"), input.glove, env);
    const rest = input.docs.slice(ingest.documents);
    if (rest.length > 0) progress(`postgres: ingest the remaining ${rest.length} documents (not measured)`);
    let next = 0;
    const lane = async () => {
      while (next < rest.length) {
        const doc = rest[next++]!;
        await rt.runtime.ingest.ingest(rt.workspaceId, {
          content: doc.content,
          source_path: doc.sourcePath,
          kind: "markdown",
        });
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    const recall: RecallResult[] = [];
    for (const mode of ["lexical", "hybrid"] as const) {
      progress(`postgres: recall ${mode} in-process`);
      recall.push(await benchRecall(rt, mode, input.warmup, input.queries, input.limits));
    }
    const indexLoadSeconds = Math.round(rt.runtime.search.stats().loadSeconds * 100) / 100;
    progress("postgres: chat turns over HTTP (extractive)");
    const srv = await startServer(rt.runtime);
    const chat = await timeTurns(srv, input.chatMessages).finally(() => srv.server.close());
    const { token } = await rt.runtime.auth.issue({ workspace: DEFAULT_WORKSPACE, label: "bench" });
    await rt.runtime.close();
    const replicas: ReplicaLoad[] = [];
    const servers: RunningServe[] = [];
    try {
      for (const n of [1, 2]) {
        // No per-token rate limit: one token drives all 16 connections, and the bench measures the service, not the limit.
        const replicaEnv = cliEnv({ ...env, SMRITI_EMBEDDER: "glove", SMRITI_RATE_LIMIT: "0" });
        while (servers.length < n) servers.push(await startServe(join(dir, `replica-${servers.length}`), replicaEnv));
        progress(
          `postgres: recall over HTTP, ${n} replica(s), ${CONNECTIONS} connections in all, ${input.loadRounds} x ${input.loadSeconds} s`,
        );
        replicas.push(await load(servers, token, input.httpQueries, input.loadSeconds, input.loadRounds));
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    progress("postgres: one-chunk documents, 8 writers, in-process and over HTTP");
    const smallIngest = await benchSmallIngest(join(dir, "small"), input.vocab, input.glove, {
      ...input.smallIngest,
      maxSeconds: 30,
      env,
    });
    return {
      server: database.version,
      smallIngest,
      ingest,
      recall,
      indexLoadSeconds,
      chat,
      replicas,
      scaling: Math.round((replicas[1]!.requestsPerSec / replicas[0]!.requestsPerSec) * 100) / 100,
    };
  } finally {
    await database.close();
  }
}

/** One autocannon process per replica, all at once, the connections split between them. */
async function load(
  servers: readonly RunningServe[],
  token: string,
  queries: readonly string[],
  seconds: number,
  rounds: number,
): Promise<ReplicaLoad> {
  const each = CONNECTIONS / servers.length;
  const runs = servers.map((s, i) => {
    // Every replica rotates over all the queries (each has its own query-vector cache), from its own place in the list.
    const from = Math.floor((i * queries.length) / servers.length);
    const init: LoadClientInit = {
      url: s.url,
      token,
      queries: [...queries.slice(from), ...queries.slice(0, from)],
      mode: "hybrid",
      connections: [each],
      seconds,
      rounds,
      serverPids: [s.child.pid!],
    };
    return nextMessage<{ steps: LoadStep[] }>(forkClient("./load-client.ts", init), isType("load"));
  });
  const steps = (await Promise.all(runs)).flatMap((r) => r.steps);
  return {
    replicas: servers.length,
    requestsPerSec: Math.round(steps.reduce((n, s) => n + s.requestsPerSec, 0)),
    p50: Math.max(...steps.map((s) => s.p50)),
    p99: Math.max(...steps.map((s) => s.p99)),
    errors: steps.reduce((n, s) => n + s.errors + s.non2xx, 0),
    steps,
  };
}

/** SMRITI_BENCH_DATABASE_URL (in a schema of its own) or a throwaway cluster; null when there is neither. */
export async function openDatabase(): Promise<{ url: string; version: string; close(): Promise<void> } | null> {
  const given = process.env["SMRITI_BENCH_DATABASE_URL"];
  const bin = given ? null : postgresBinDir();
  if (!given && !bin) return null;
  const cluster = bin ? await startTestCluster(bin) : null;
  let url = cluster?.url ?? given!;
  const admin = new pg.Client(url);
  await admin.connect();
  const version = ((await admin.query("SHOW server_version")).rows[0] as { server_version: string }).server_version;
  let schema: string | null = null;
  if (given) {
    schema = `smriti_bench_${Date.now()}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    const u = new URL(given);
    u.searchParams.set("options", `-c search_path=${schema}`);
    url = u.toString();
  }
  await admin.end();
  return {
    url,
    version: `PostgreSQL ${version}`,
    close: async () => {
      if (schema) {
        const c = new pg.Client(given!);
        await c.connect();
        await c.query(`DROP SCHEMA ${schema} CASCADE`);
        await c.end();
      }
      cluster?.stop();
    },
  };
}
