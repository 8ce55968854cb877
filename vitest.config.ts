// Test runner settings: real processes and sockets, so generous timeouts; the GloVe cache is built once up front.
// Two passes: every test on the embedded SQLite store, then the service-level tests again on PostgreSQL (a schema per
// test service; global-setup starts the server), when one is installed or SMRITI_TEST_DATABASE_URL names one.
import { defineConfig } from "vitest/config";
import { postgresBinDir } from "./test/helpers/postgres-cluster.ts";

const postgres = Boolean(process.env["SMRITI_TEST_DATABASE_URL"] || postgresBinDir());

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time whatever the core count (vitest's default is cores - 1: one on a 2-core machine). Most of the
    // slow files wait on processes, sockets and heartbeats, not the CPU: two at a time took the suite from 835 s to
    // 533 s on 2 cores. No test may depend on the machine's speed, so a busier machine is slower, not red.
    maxWorkers: 2,
    minWorkers: 1,
    // expect.poll waits for what a busy machine delivers late (a console turn drawn in Chromium), 1 s by default.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: "sqlite", include: ["test/**/*.test.ts"], exclude: ["test/replicas/**"] } },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: [
                  "test/{http,sessions,grounded,knowledge,cognitive,mcp,streams,memory,replicas,agui}/**/*.test.ts",
                ],
                // Tampering edits a copied SQLite file: the chain checks themselves run on both stores in the store suite.
                // The abuse limits live in the HTTP layer, and the secrets test reads a `smriti serve` child's SQLite
                // file: neither depends on the store, so one pass is enough.
                // A recall on PostgreSQL waits on round trips, in which queued writes are analysed anyway: the order the
                // ingest-turns test checks is that of a recall served wholly on the loop, the embedded store's.
                exclude: [
                  "test/memory/ingest-turns.test.ts",
                  "test/grounded/tamper.test.ts",
                  "test/http/abuse-limits.test.ts",
                  "test/http/secrets.test.ts",
                ],
                env: { SMRITI_TEST_STORE: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
