// Before any test file: builds the GloVe binary cache once (first run converts the 307 MB JSON), and rebuilds the console
// when its sources changed since web/dist was built (the browser tests drive the built page, as a user gets it). Vitest
// sets NODE_ENV=test, which would give React's development build: the build is told production, as npm ci makes it.
import { spawnSync } from "node:child_process";
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
  await ensureGloveCache();
  const stopPostgres = await ensurePostgres();
  return () => stopPostgres?.();
}
