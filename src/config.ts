// Runtime configuration from flags and environment, validated once at start-up.
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const Env = z.object({
  SMRITI_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SMRITI_HOST: z.string().default("127.0.0.1"),
  SMRITI_DATA_DIR: z.string().default("./data"),
  SVC_MULTI_TENANT: z.enum(["0", "1", ""]).default("0"),
  SMRITI_SYNC: z.enum(["normal", "full"]).default("normal"),
  SMRITI_DENSE_KNN: z.enum(["0", "1", ""]).default(""),
  SMRITI_SOFT_TERMS: z.enum(["0", "1", ""]).default(""),
  SMRITI_POLICY_DIR: z.string().optional(),
  SMRITI_AGENT_CATALOG: z.string().optional(),
  SMRITI_BWRAP: z.string().optional(),
  SMRITI_APPROVAL_FLOOR: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["never", "on-write", "always"]).default("never"),
  ),
  SMRITI_SESSION_HEARTBEAT_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  SMRITI_MAX_RUNNING_SESSIONS: z.coerce.number().int().min(1).max(10_000).default(256),
  SMRITI_BACKGROUND_SESSIONS: z.enum(["0", "1", ""]).default("1"),
  SMRITI_SESSION_PROCESS: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["0", "1", "auto"]).default("auto")),
  SMRITI_SESSION_IDLE_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
  SMRITI_SESSION_NICE: z.coerce.number().int().min(0).max(19).default(19),
  SMRITI_SESSION_SCHED_IDLE: z.enum(["0", "1"]).default("1"),
  SMRITI_CONSOLE_DIR: z.string().optional(),
  SMRITI_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "a postgres:// or postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SMRITI_INDEX_MEMORY_MB: z.coerce.number().min(0).default(0),
  SMRITI_INDEX_SNAPSHOTS: z.enum(["0", "1", ""]).default("1"),
  SMRITI_INGEST_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  SMRITI_PLAN_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  SMRITI_RATE_LIMIT: z.coerce.number().min(0).default(100),
  SMRITI_STREAMS_PER_TOKEN: z.coerce.number().int().min(0).default(32),
  SMRITI_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  SMRITI_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  SMRITI_AUTOTUNE_MINUTES: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().min(0).default(30)),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** PostgreSQL instead of the SQLite file in dataDir (SMRITI_DATABASE_URL). */
  databaseUrl: string | null;
  multiTenant: boolean;
  synchronous: "normal" | "full";
  /** Hybrid recall also takes nearest neighbours from a scan of every vector; null = decide by embedder. */
  denseKnn: boolean | null;
  /** Hybrid recall with GloVe also matches query words the workspace lacks to its near words (off by default). */
  softTerms: boolean;
  /** Session policy files (policy_path names one inside it). */
  policyDir: string;
  /** The operator's agent catalog file (SMRITI_AGENT_CATALOG): what sessions may execute; null = the command and A2A engines are off. */
  agentCatalog: string | null;
  /** Where bubblewrap is (SMRITI_BWRAP; default /usr/bin/bwrap, then /bin/bwrap); a path that does not exist means none. */
  bubblewrapPaths: string[];
  /** The least approval_mode any session has (SMRITI_APPROVAL_FLOOR); the catalog raises it per workspace and agent. */
  approvalFloor: "never" | "on-write" | "always";
  /** Each session's task workspace for file tools: <sessionsDir>/<workspace>/<session>. */
  sessionsDir: string;
  /** How often the supervisor marks its runs alive; a run silent for 3 of these is recovered. */
  heartbeatMs: number;
  /** Background runs one process runs at once; the rest wait queued. */
  maxRunningSessions: number;
  /**
   * Whether `smriti serve` runs background sessions. Off, it queues them and serves their streams and controls while
   * another process on the same store runs them: sessions kept off the process that answers recalls.
   */
  runsBackgroundSessions: boolean;
  /**
   * Whether `smriti serve`, serving alone, hands the session routes to a process of its own (a second runtime on the
   * store), so chat turns and background runs do not take the serving process from recalls. `on-demand` (the default)
   * starts it with the first session request or a background session to run and stops it after `sessionIdleMs` with
   * nothing to do, as it holds a second copy of the indexes and word vectors; `always` keeps it from start to stop;
   * `off` runs the sessions in the serving process.
   */
  sessionProcess: "off" | "always" | "on-demand";
  /** How long an on-demand session process waits with no turn, run or connection before it stops. */
  sessionIdleMs: number;
  /**
   * The nice value (0-19) the session process runs at; by default 19, the lowest CPU priority, so that on a machine
   * short of cores the serving process's recalls come before turns.
   */
  sessionNice: number;
  /**
   * Whether the session process also takes Linux's SCHED_IDLE policy (below any nice value; chrt sets it): a CPU busy
   * only with turns then counts as free when the kernel places a woken recall or its client.
   */
  sessionIdlePolicy: boolean;
  /** The server's automatic tuner checks for new feedback this often; 0 = off. */
  autoTuneMinutes: number;
  /** Estimated MB the in-memory search indexes may hold; past it the least recently searched workspaces are dropped (0: no limit). */
  indexMemoryMb: number;
  /** Where loaded search indexes are saved at shutdown and read back at the next load (<dataDir>/index); null = off. */
  indexSnapshotDir: string | null;
  /** Fusion and calibration fitted per embedder id by `npm run eval -- calibrate --embedder` (<dataDir>/calibration). */
  calibrationDir: string;
  /** Worker threads that chunk, tokenize and embed ingested documents; 0 = on the request loop. */
  ingestWorkers: number;
  /** Threads for answer and pack plans; null = the runtime decides (serving: cores - 1, 1..2; one-shot commands: none). */
  planWorkers: number | null;
  /** Per-token limits of `smriti serve`: sustained requests per second (0 = none) and open event streams (0 = none). */
  rateLimit: number;
  streamsPerToken: number;
  /** A connection that has not sent its request headers in this long is closed (slow clients cannot hold sockets). */
  headersTimeoutMs: number;
  /** The console's built files (web/dist, made by `npm ci`'s prepare step), served at /console. */
  consoleDir: string;
  /** Processes `smriti serve` runs on its one port (node:cluster), each a replica on the store; 1 = this process alone. */
  workers: number;
  env: NodeJS.ProcessEnv;
}

export function loadConfig(
  env: NodeJS.ProcessEnv,
  flags: {
    port?: number | undefined;
    data?: string | undefined;
    host?: string | undefined;
    workers?: number | undefined;
  } = {},
): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new Error(
      `bad configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const e = parsed.data;
  if (flags.workers !== undefined && !(Number.isInteger(flags.workers) && flags.workers >= 1 && flags.workers <= 64))
    throw new Error("bad configuration: --workers takes a whole number from 1 to 64");
  const dataDir = resolve(flags.data ?? e.SMRITI_DATA_DIR);
  return {
    port: flags.port ?? e.SMRITI_PORT,
    host: flags.host ?? e.SMRITI_HOST,
    dataDir,
    dbFile: resolve(dataDir, "smriti.db"),
    databaseUrl: e.SMRITI_DATABASE_URL ?? null,
    indexMemoryMb: e.SMRITI_INDEX_MEMORY_MB,
    indexSnapshotDir: e.SMRITI_INDEX_SNAPSHOTS === "0" ? null : resolve(dataDir, "index"),
    policyDir: resolve(e.SMRITI_POLICY_DIR ?? resolve(dataDir, "policies")),
    sessionsDir: resolve(dataDir, "sessions"),
    calibrationDir: resolve(dataDir, "calibration"),
    agentCatalog: e.SMRITI_AGENT_CATALOG ? resolve(e.SMRITI_AGENT_CATALOG) : null,
    approvalFloor: e.SMRITI_APPROVAL_FLOOR,
    bubblewrapPaths: e.SMRITI_BWRAP ? [e.SMRITI_BWRAP] : ["/usr/bin/bwrap", "/bin/bwrap"],
    multiTenant: e.SVC_MULTI_TENANT === "1",
    synchronous: e.SMRITI_SYNC,
    // One core stays with the loop that writes and serves; the rest analyse (at least one worker, at most four).
    ingestWorkers: e.SMRITI_INGEST_WORKERS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
    planWorkers: e.SMRITI_PLAN_WORKERS ?? null,
    denseKnn: e.SMRITI_DENSE_KNN === "" ? null : e.SMRITI_DENSE_KNN === "1",
    softTerms: e.SMRITI_SOFT_TERMS === "1",
    autoTuneMinutes: e.SMRITI_AUTOTUNE_MINUTES,
    heartbeatMs: e.SMRITI_SESSION_HEARTBEAT_MS,
    maxRunningSessions: e.SMRITI_MAX_RUNNING_SESSIONS,
    runsBackgroundSessions: e.SMRITI_BACKGROUND_SESSIONS !== "0",
    sessionProcess: ({ "0": "off", "1": "always", auto: "on-demand" } as const)[e.SMRITI_SESSION_PROCESS],
    sessionIdleMs: e.SMRITI_SESSION_IDLE_MS,
    sessionNice: e.SMRITI_SESSION_NICE,
    sessionIdlePolicy: e.SMRITI_SESSION_SCHED_IDLE === "1",
    rateLimit: e.SMRITI_RATE_LIMIT,
    streamsPerToken: e.SMRITI_STREAMS_PER_TOKEN,
    headersTimeoutMs: e.SMRITI_HEADERS_TIMEOUT_MS,
    workers: flags.workers ?? e.SMRITI_WORKERS,
    consoleDir: resolve(e.SMRITI_CONSOLE_DIR ?? fileURLToPath(new URL("../web/dist", import.meta.url))),
    env,
  };
}

/** Where the data lives, for logs and messages: the SQLite file, or the PostgreSQL URL without its password. */
export function describeStore(config: Config): string {
  if (!config.databaseUrl) return config.dbFile;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres (unparseable URL)";
  }
}
