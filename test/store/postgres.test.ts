// The PostgreSQL adapter against the Store conformance suite, on a real server (global-setup starts one), each store in
// its own schema; a second handle on the same schema stands for another replica.
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/ports/store.ts";
import { openPostgresStore } from "../../src/store/postgres/index.ts";
import { migrations } from "../../src/store/postgres/schema.ts";
import { freshSchemaUrl, testDatabaseUrl } from "../helpers/postgres.ts";
import { runStoreSuite } from "./conformance/index.ts";

// Without a server (no Debian postgresql and no SMRITI_TEST_DATABASE_URL) the suite shows as skipped, with the reason;
// global-setup prints it too, and under CI a missing server fails the run instead.
if (!testDatabaseUrl)
  describe("postgres", () => it.skip("PostgreSQL is not installed (apt-get install postgresql)", () => {}));
else {
  const urlOf = new WeakMap<Store, string>();
  runStoreSuite(
    "postgres",
    async (sharedWith) => {
      const url = sharedWith ? urlOf.get(sharedWith)! : await freshSchemaUrl();
      const store = await openPostgresStore(url, { maxConnections: 4 });
      urlOf.set(store, url);
      return store;
    },
    legacyTokenStore,
  );
}

/** A schema migrated up to just before token scopes and given one token there, then opened as today's store. */
async function legacyTokenStore(): Promise<Store> {
  const url = await freshSchemaUrl();
  const before = migrations.findIndex((m) => m.includes("ADD COLUMN scopes"));
  const client = new pg.Client(url);
  await client.connect();
  try {
    for (const m of migrations.slice(0, before)) await client.query(m);
    await client.query("CREATE TABLE smriti_schema (version INTEGER NOT NULL)");
    await client.query("INSERT INTO smriti_schema (version) VALUES ($1)", [before]);
    await client.query("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_old', 'alpha', 1)");
    await client.query(
      "INSERT INTO tokens (id, workspace_id, token_hash, actors, label, created_at, revoked_at) VALUES ('tok_old', 'ws_old', 'hash-old', '[]', NULL, 1, NULL)",
    );
  } finally {
    await client.end();
  }
  return openPostgresStore(url, { maxConnections: 2 });
}

if (testDatabaseUrl)
  describe("postgres: stream followers across handles", () => {
    it("wakes a follower on another handle (another replica) when its stream grows, and not for other streams", async () => {
      const url = await freshSchemaUrl();
      const [one, two] = await Promise.all([
        openPostgresStore(url, { maxConnections: 2 }),
        openPostgresStore(url, { maxConnections: 2 }),
      ]);
      try {
        const ws = (await one.workspaces.ensureWorkspace("w", 0)).id;
        let woken = 0;
        const off = two.streams.subscribeStream(ws, "s", () => woken++);
        // The listener connects in the background: append until the first notification arrives (SQLite has none).
        for (
          const deadline = Date.now() + 10_000;
          woken === 0 && Date.now() < deadline;
          await new Promise((r) => setTimeout(r, 100))
        )
          await one.streams.appendStream(ws, "s", [{ type: "x", at: 0, data: null }]);
        expect(woken).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 300)); // notifications of the appends before the first wake
        const before = woken;
        await one.streams.appendStream(ws, "other", [{ type: "x", at: 0, data: null }]);
        await one.streams.appendStream(ws, "s", [{ type: "x", at: 0, data: null }]);
        for (const deadline = Date.now() + 5_000; woken === before && Date.now() < deadline;)
          await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300)); // a wake for "other" would have come first: it must not come at all
        expect(woken).toBe(before + 1);
        off();
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });
