// `npm run soak [-- --quick] [--postgres] [--seed=N]`: fuzzing, crash trials, cross-workspace attacks, abuse limits, a
// soak of mixed traffic with stream resumes, and a search for leaked tokens, each against real `smriti serve` processes
// on loopback. With --postgres the service that is fuzzed, attacked and soaked keeps its data in a throwaway PostgreSQL
// cluster (Debian's server; the crash trials stay on SQLite, whose file they check). Every loop is bounded in count and
// time. Prints one table; writes bench/results/soak-<date>-<commit>[-postgres].json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { progress } from "../lib/log.ts";
import { commitInfo, load1, machineInfo } from "../lib/machine.ts";
import { abuse } from "./abuse.ts";
import { bola, seedAlpha } from "./bola.ts";
import { crashTrials } from "./crash.ts";
import { escapes } from "./escapes.ts";
import { postgresBinDir, startTestCluster, type TestCluster } from "../../test/helpers/postgres-cluster.ts";
import { postgresReader, sqliteReader, type StoreReader } from "./fingerprint.ts";
import { fuzz } from "./fuzz.ts";
import { pgRestarts, type PgRestartResult } from "./pg-restarts.ts";
import { secrets } from "./secrets.ts";
import { issueToken, serveEnv, startServe } from "./serve.ts";
import { traffic } from "./traffic.ts";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const postgres = argv.includes("--postgres");
const seed = Number(argv.find((a) => a.startsWith("--seed="))?.slice(7) ?? 1);
const size = quick
  ? { perTarget: 20, crashTrials: 2, soakSeconds: 10, rate: 40, reconnects: 100, slow: 50 }
  : { perTarget: 150, crashTrials: 20, soakSeconds: 60, rate: 40, reconnects: 1_000, slow: 200 };
/** The defaults of `smriti serve` the abuse phase checks (README "Configuration"). */
const DEFAULTS = { headersTimeoutMs: 10_000, streamsPerToken: 32 };

const root = fileURLToPath(new URL("../..", import.meta.url));
const commit = commitInfo(root);
const loadAtStart = load1();
const scratch = mkdtempSync(join(tmpdir(), "smriti-soak-"));
const started = performance.now();
let cluster: TestCluster | null = null;
try {
  // One multi-tenant service for fuzzing, the attacks and the soak; its rate limit is off so they measure the service.
  const bin = postgres ? postgresBinDir() : null;
  if (postgres && !bin) throw new Error("--postgres needs Debian's postgresql package (apt-get install postgresql)");
  cluster = bin ? await startTestCluster(bin) : null;
  const mainEnv = serveEnv({
    SVC_MULTI_TENANT: "1",
    SMRITI_RATE_LIMIT: "0",
    ...(cluster ? { SMRITI_DATABASE_URL: cluster.url } : {}),
  });
  const mainDir = join(scratch, "main");
  mkdirSync(mainDir);
  const main = await startServe(mainDir, mainEnv);
  const token = issueToken(mainDir, "default", mainEnv);
  const alpha = issueToken(mainDir, "alpha", mainEnv);
  const beta = issueToken(mainDir, "beta", mainEnv);
  const alive = () => main.child.exitCode === null && main.child.signalCode === null;

  progress(`fuzzing every route and MCP tool (${size.perTarget} requests each)`);
  const mainStore: StoreReader = cluster ? await postgresReader(cluster.url) : sqliteReader(join(mainDir, "smriti.db"));
  const fuzzed = await fuzz(main.url, token, () => mainStore.fingerprint(), alive, { perTarget: size.perTarget, seed });
  progress("cross-workspace attacks");
  const attacks = await bola(main.url, alpha, beta, await seedAlpha(main.url, alpha));
  progress(`soak: ${size.soakSeconds} s of mixed traffic at ${size.rate}/s, ${size.reconnects} stream resumes`);
  const soak = await traffic(main, token, { seconds: size.soakSeconds, rate: size.rate, reconnects: size.reconnects });

  progress("abuse limits (a service with its defaults)");
  const limitsDir = join(scratch, "limits");
  mkdirSync(limitsDir);
  const limited = await startServe(limitsDir);
  const limitedToken = issueToken(limitsDir);
  const abused = await abuse(limited, limitedToken, issueToken(limitsDir), { slowConnections: size.slow, ...DEFAULTS });

  progress("trust boundary: raw argv and URLs, scopes, floors, a probe under bubblewrap");
  const escaped = await escapes(scratch);

  progress(`crash trials (kill -9, ${size.crashTrials} per operation)`);
  const crashDir = join(scratch, "crash");
  mkdirSync(crashDir);
  const crashed = await crashTrials(crashDir, size.crashTrials, seed);

  // On a cluster of its own (durable commits), whichever store the main service uses; skipped, and said so, without one.
  const pgBin = postgresBinDir();
  let restarted: PgRestartResult | null = null;
  if (pgBin) {
    progress("PostgreSQL restarts (pg_ctl stop -m immediate, 5 times) under load on two replicas");
    const restartDir = join(scratch, "pg-restarts");
    mkdirSync(restartDir);
    restarted = await pgRestarts(restartDir, pgBin, 5);
  }

  progress("looking for tokens where they must not be");
  const limitsStore = sqliteReader(join(limitsDir, "smriti.db"));
  const stores: [string, StoreReader][] = [
    [cluster ? "postgres" : "main/smriti.db", mainStore],
    ["limits/smriti.db", limitsStore],
  ];
  const leaked = await secrets({
    tokens: [token, alpha, beta, limitedToken],
    logs: [main.log(), limited.log()],
    stores,
    base: main.url,
    token,
  });
  await Promise.all(stores.map(([, r]) => r.close()));
  await main.stop();
  await limited.stop();

  const rows: [string, string, string, boolean][] = [
    [
      "fuzz: requests (valid and mutated, every route and MCP tool)",
      ">= 10,000",
      String(fuzzed.requests),
      fuzzed.requests >= (quick ? 0 : 10_000),
    ],
    [
      "fuzz: 5xx answers / crashes / no answer",
      "0 / 0 / 0",
      `${fuzzed.status5xx} / ${fuzzed.crashed ? 1 : 0} / ${fuzzed.noAnswer}`,
      fuzzed.status5xx + fuzzed.noAnswer === 0 && !fuzzed.crashed,
    ],
    [
      "fuzz: 4xx without the error envelope",
      "0",
      `${fuzzed.badEnvelopes} of ${fuzzed.status4xx}`,
      fuzzed.badEnvelopes === 0,
    ],
    [
      "fuzz: rejected requests that changed the store",
      "0",
      String(fuzzed.rejectedThatWrote),
      fuzzed.rejectedThatWrote === 0,
    ],
    [
      "crash: kill -9 trials (ingest, forget, decision, chat turn, background run)",
      `${size.crashTrials} each`,
      Object.values(crashed.trials).join(" / "),
      Object.values(crashed.trials).every((n) => n === size.crashTrials),
    ],
    [
      "crash: corrupt DBs / lost acknowledged writes / half-written docs",
      "0 / 0 / 0",
      `${crashed.corruptDatabases} / ${crashed.lostAcknowledged} / ${crashed.halfWrittenDocuments}`,
      crashed.corruptDatabases + crashed.lostAcknowledged + crashed.halfWrittenDocuments === 0,
    ],
    [
      "crash: audit chain failures / sessions not recovered",
      "0 / 0",
      `${crashed.auditFailures} / ${crashed.stuckSessions}`,
      crashed.auditFailures + crashed.stuckSessions === 0,
    ],
    ...restartRows(restarted),
    [
      "BOLA: attempts; leaks / unrefused / alpha's data changed",
      "0 / 0 / 0",
      `${attacks.attempts}; ${attacks.leaks} / ${attacks.unrefused} / ${attacks.tampered}`,
      attacks.leaks + attacks.unrefused + attacks.tampered === 0,
    ],
    [
      "escapes: attempts to run, fetch or read what the operator did not allow: refused / escaped",
      "all / 0",
      `${escaped.refused} of ${escaped.attempts} / ${escaped.escaped}`,
      escaped.escaped === 0 && escaped.refused === escaped.attempts,
    ],
    [
      "escapes: the probe under bubblewrap ran and reported (uid)",
      "ran, not root",
      Object.keys(escaped.probe).length ? `ran (uid ${escaped.probe["uid"]})` : "did not run",
      Object.keys(escaped.probe).length > 0 && escaped.probe["uid"] !== "0",
    ],
    [
      "abuse: burst of 640 recalls on one token: accepted / 429 (with Retry-After)",
      "429s, all with Retry-After",
      `${abused.rate.accepted} / ${abused.rate.refused429} (${abused.rate.withRetryAfter})`,
      abused.rate.refused429 > 0 &&
        abused.rate.withRetryAfter === abused.rate.refused429 &&
        abused.rate.otherStatus === 0,
    ],
    [
      "abuse: POST routes refusing a body over 8 MiB with 413 (or closing before it is read)",
      "all",
      `${abused.oversizeBodies.refused413} of ${abused.oversizeBodies.routes} (+${abused.oversizeBodies.closedEarly} closed)`,
      abused.oversizeBodies.refused413 + abused.oversizeBodies.closedEarly === abused.oversizeBodies.routes,
    ],
    [
      "abuse: size fields past their maximum refused with 400",
      "all",
      `${abused.resultBounds.refused400} of ${abused.resultBounds.fields}`,
      abused.resultBounds.refused400 === abused.resultBounds.fields,
    ],
    [
      `abuse: ${abused.slowClients.connections} slow clients: all closed within / others served p99`,
      `<= ${DEFAULTS.headersTimeoutMs / 1000 + 3} s / 0 errors`,
      `${abused.slowClients.closedWithinSeconds ?? "not all"} s / ${abused.slowClients.servedMeanwhile.p99} ms (${abused.slowClients.servedErrors} errors)`,
      abused.slowClients.closedWithinSeconds !== null &&
        abused.slowClients.closedWithinSeconds <= DEFAULTS.headersTimeoutMs / 1000 + 3 &&
        abused.slowClients.servedErrors === 0,
    ],
    [
      "abuse: streams opened at once by one token: accepted / 429",
      `${DEFAULTS.streamsPerToken} / rest`,
      `${abused.streams.accepted} / ${abused.streams.refused429}`,
      abused.streams.accepted === DEFAULTS.streamsPerToken &&
        abused.streams.refused429 === abused.streams.opened - DEFAULTS.streamsPerToken,
    ],
    [
      `soak: ${soak.requests} requests in ${soak.seconds} s at ${soak.ratePerSecond}/s: errors`,
      "0",
      String(soak.errors),
      soak.errors === 0,
    ],
    [
      "soak: RSS at the start / peak / end (MB)",
      "peak <= start + 128",
      `${soak.rssStartMb} / ${soak.rssPeakMb} / ${soak.rssEndMb}`,
      soak.rssPeakMb <= soak.rssStartMb + 128,
    ],
    [
      `soak: ${soak.reconnects.count} stream resumes with Last-Event-ID over ${soak.reconnects.events} events: lost / duplicated`,
      "0 / 0",
      `${soak.reconnects.lost} / ${soak.reconnects.duplicated}`,
      soak.reconnects.lost + soak.reconnects.duplicated === 0 && soak.reconnects.count === size.reconnects,
    ],
    [
      "secrets: tokens found in logs, the database, error bodies or /metrics",
      "0 places",
      leaked.found.length ? leaked.found.join(", ") : `0 (${leaked.placesSearched.length} places)`,
      leaked.found.length === 0,
    ],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  const lines = [
    `Smriti soak ${new Date().toISOString().slice(0, 10)} commit ${commit.short}${commit.dirty ? " (dirty)" : ""}${quick ? " (quick)" : ""}, seed ${seed}, main store ${cluster ? "PostgreSQL" : "SQLite"}`,
    `${"figure".padEnd(w)}  ${"target".padEnd(26)}  ${"measured".padEnd(32)}  result`,
    ...rows.map(
      ([what, target, got, ok]) =>
        `${what.padEnd(w)}  ${target.padEnd(26)}  ${got.padEnd(32)}  ${ok ? "PASS" : "FAIL"}`,
    ),
    "",
    "soak RSS over the run (s: MB): " + soak.rssTimeline.map(([t, mb]) => `${t}: ${mb}`).join(", "),
    "soak latency per route (ms): " +
      Object.entries(soak.byRoute)
        .map(([r, s]) => `${r} p50 ${s.p50} / p99 ${s.p99} (n ${s.n})`)
        .join("; "),
  ];
  const problems = [
    ...escaped.examples,
    ...fuzzed.examples,
    ...attacks.examples,
    ...soak.examples,
    ...abused.examples,
    ...crashed.examples,
    ...(restarted?.examples ?? []),
  ];
  if (problems.length) lines.push("", "first problems seen:", ...problems.map((p) => `  ${p}`));
  process.stdout.write(`\n${lines.join("\n")}\n`);
  const date = new Date().toISOString().slice(0, 10);
  const file = fileURLToPath(
    new URL(
      `../results/soak-${date}-${commit.short}${postgres ? "-postgres" : ""}${quick ? "-quick" : ""}.json`,
      import.meta.url,
    ),
  );
  const results = {
    date,
    commit,
    quick,
    seed,
    store: cluster ? "postgres" : "sqlite",
    machine: machineInfo(null, loadAtStart),
    durationSeconds: Math.round((performance.now() - started) / 1000),
    fuzz: fuzzed,
    crash: crashed,
    pgRestarts: restarted,
    bola: attacks,
    escapes: escaped,
    abuse: abused,
    soak,
    secrets: leaked,
    table: rows.map(([figure, target, measured, pass]) => ({ figure, target, measured, pass })),
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  progress(`wrote ${file}`);
  if (rows.some((r) => !r[3])) process.exitCode = 1;
} finally {
  cluster?.stop();
  rmSync(scratch, { recursive: true, force: true });
}

/** The table's rows for the PostgreSQL restart phase; one row saying it did not run where no server is installed. */
function restartRows(r: PgRestartResult | null): [string, string, string, boolean][] {
  if (!r) return [["pg restarts: not run (no PostgreSQL installed; apt-get install postgresql)", "-", "-", true]];
  return [
    [
      `pg restarts: ${r.restarts} immediate-stop restarts under load; replicas and session processes alive after`,
      `${r.processes} of ${r.processes}`,
      `${r.processesAlive} of ${r.processes}`,
      r.processesAlive === r.processes,
    ],
    [
      "pg restarts: requests answered / 503 store_unavailable (Retry-After) / lost",
      "lost 0",
      `${r.answered} / ${r.refused503} / ${r.lost}`,
      r.lost === 0 && r.refused503 > 0,
    ],
    [
      "pg restarts: acknowledged ingests missing / turn streams ended by an error event",
      "0 / any",
      `${r.missingAcknowledged} / ${r.turnsEndedWithError}`,
      r.missingAcknowledged === 0,
    ],
  ];
}
