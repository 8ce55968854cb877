// Phase: PostgreSQL crashed and started again (`pg_ctl stop -m immediate`) while two replicas, each with its session
// process, serve ingests, recalls, chat turns and background runs (issue 39, item 6). Counts the requests answered,
// refused with 503 store_unavailable and lost, the processes alive after, and acknowledged ingests missing after.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { processAlive, SESSION_PROCESS_READY, untilLogged } from "../../test/cli/cli-helpers.ts";
import { startTestCluster } from "../../test/helpers/postgres-cluster.ts";
import { restartCycles, startLoad } from "../../test/replicas/restart-load.ts";
import { issueToken, serveEnv, startServe } from "./serve.ts";

export interface PgRestartResult {
  restarts: number;
  answered: number;
  refused503: number;
  lost: number;
  /** Chat turns whose stream ended with an `error` event (the database went away under them), not cut. */
  turnsEndedWithError: number;
  processesAlive: number;
  processes: number;
  missingAcknowledged: number;
  examples: string[];
}

export async function pgRestarts(dir: string, bin: string, restarts: number): Promise<PgRestartResult> {
  // Durable commits: with synchronous_commit off an immediate stop loses acknowledged commits by design of the server.
  const cluster = await startTestCluster(bin, { durable: true });
  try {
    const env = serveEnv({
      SMRITI_DATABASE_URL: cluster.url,
      SMRITI_SESSION_PROCESS: "1",
      SMRITI_SESSION_HEARTBEAT_MS: "1000",
    });
    const dirs = [0, 1].map((i) => join(dir, `replica-${i}`));
    dirs.forEach((d) => mkdirSync(d, { recursive: true }));
    const token = issueToken(dirs[0]!, "default", env);
    const replicas = [await startServe(dirs[0]!, env), await startServe(dirs[1]!, env)];
    const sessionPids = await Promise.all(
      replicas.map(async (r) => Number(await untilLogged(r, SESSION_PROCESS_READY))),
    );
    const { load, stop } = startLoad(replicas.map((r) => ({ url: r.url, token })));
    await restartCycles(cluster, restarts);
    await stop();
    const pids = [...replicas.map((r) => r.child.pid!), ...sessionPids];
    const processesAlive = pids.filter(processAlive).length;
    const db = new pg.Client(cluster.url);
    await db.connect();
    const stored = new Set(
      (await db.query<{ source_path: string }>("SELECT source_path FROM documents")).rows.map((r) => r.source_path),
    );
    await db.end();
    await Promise.all(replicas.map((r) => r.stop()));
    const tallies = [load.ingests, load.recalls, load.turns, load.runs];
    const lost = tallies.flatMap((t) => t.lost);
    return {
      restarts,
      answered: tallies.reduce((n, t) => n + t.acked, 0),
      refused503: tallies.reduce((n, t) => n + t.unavailable, 0),
      lost: lost.length,
      turnsEndedWithError: load.turns.errorEnds,
      processesAlive,
      processes: pids.length,
      missingAcknowledged: load.ingests.paths.filter((p) => !stored.has(p)).length,
      examples: lost.slice(0, 5).map((l) => `pg restarts: ${l}`),
    };
  } finally {
    cluster.stop();
  }
}
