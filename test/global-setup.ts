// Before any test file: builds the GloVe binary cache once (first run converts the 307 MB JSON), rebuilds the console
// when its sources changed since web/dist was built (the browser tests drive the built page, as a user gets it), and
// dist/ when src/ changed since (the tests' `smriti` children then run the JavaScript a user runs). Vitest sets
// NODE_ENV=test, which would give React's development build: the build is told production, as npm ci makes it.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureGloveCache } from "../src/embed/glove.ts";
import { postgresBinDir, startTestCluster } from "./helpers/postgres-cluster.ts";

const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );

function ensureConsoleBuilt(): void {
  const built = (() => {
    try {
      return statSync("web/dist/index.html").mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = Math.max(
    newest("web/src"),
    newest("src/client"),
    statSync("web/index.html").mtimeMs,
    statSync("web/vite.config.ts").mtimeMs,
  );
  if (built >= sources) return;
  const run = spawnSync(process.execPath, ["node_modules/vite/bin/vite.js", "build", "web", "--logLevel", "warn"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (run.status !== 0) throw new Error("the console did not build (npm run build:console)");
}

/**
 * bin/smriti.js runs dist/ while it is newer than src/, else the sources through tsx: 0.7 s more CPU at each start
 * (1.55 s against 0.87 for `cognitive status`), paid by every `smriti` child: each CLI call, server and session
 * process. A checkout being edited (or just merged) has a stale dist/: npm's prepare step builds it again (tsc,
 * incremental: 4-17 s of CPU). A build that fails (a type error, which the type-check reports) leaves them on tsx.
 */
async function ensureServiceBuilt(): Promise<void> {
  let stamp = 0;
  try {
    stamp = statSync("dist/.build-stamp").mtimeMs;
  } catch {
    // never built
  }
  if (stamp >= newest("src")) return;
  const build = spawn(process.execPath, ["scripts/prepare.mjs", "dist"], { stdio: "inherit" });
  const [code] = (await once(build, "exit")) as [number | null];
  if (code !== 0) process.stderr.write("\n[test] dist/ did not build: the CLI tests run the sources through tsx\n\n");
}

/**
 * The PostgreSQL tests' server: SMRITI_TEST_DATABASE_URL when set, else a throwaway cluster of the installed Debian
 * postgresql (the workers inherit the URL). Without one they are skipped, loudly; under CI that is a failure.
 */
async function ensurePostgres(): Promise<(() => void) | undefined> {
  if (process.env["SMRITI_TEST_DATABASE_URL"]) return undefined;
  const bin = postgresBinDir();
  if (!bin) {
    if (process.env["CI"])
      throw new Error("PostgreSQL is not installed (apt-get install postgresql): CI runs the PostgreSQL tests");
    process.stderr.write(
      "\n[test] PostgreSQL is not installed: the PostgreSQL tests are skipped (apt-get install postgresql to run them)\n\n",
    );
    return undefined;
  }
  const cluster = await startTestCluster(bin);
  process.env["SMRITI_TEST_DATABASE_URL"] = cluster.url;
  return cluster.stop;
}

export default async function setup(): Promise<() => void> {
  ensureConsoleBuilt();
  const built = ensureServiceBuilt(); // a child process, beside the rest of the set-up
  await ensureGloveCache();
  const stopPostgres = await ensurePostgres();
  await built;
  return () => stopPostgres?.();
}
